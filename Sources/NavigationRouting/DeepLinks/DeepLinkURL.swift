/// A deep-link URL split into scheme, segments and query, with percent-decoding done per piece.
///
/// Rules (documented in Docs/routing.md):
/// - Only printable ASCII is allowed (no spaces, controls or raw non-ASCII: encode them).
/// - `scheme:` is required and lowercased. A fragment (`#…`) is ignored.
/// - `//host` is optional; the host is lowercased and becomes the first segment. User info and
///   ports are rejected.
/// - The path is split on `/` *before* decoding, so `%2F` stays inside its segment; empty segments
///   (a trailing or doubled `/`) are skipped.
/// - The query is split on `&`, then each item at its first `=`; a key without `=` has the empty
///   value; the last value of a repeated key wins; empty items are skipped. `+` is a literal plus
///   (RFC 3986), not a space: write `%20` for a space.
/// - `%XX` must be two hex digits and the decoded bytes valid UTF-8.
struct DeepLinkURL: Equatable {
    let scheme: String
    let segments: [String]
    let query: [String: String]

    /// Parses on the URL's bytes: every rule above is about ASCII bytes, and a URL that passes the first check
    /// is printable ASCII throughout, so no grapheme breaking or Unicode case mapping is needed (a deep link is
    /// parsed on every `OpenURL`, ahead of the change it makes).
    init(parsing text: String) throws(DeepLinkError) {
        let bytes = Array(text.utf8)
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw Self.unprintable(text) }
        let withoutFragment = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex)]
        guard let colon = withoutFragment.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformedURL(reason: "no scheme (expected e.g. myapp://…)")
        }
        let scheme = withoutFragment[..<colon]
        guard Self.isValidScheme(scheme) else {
            throw .malformedURL(reason: "invalid scheme '\(Self.text(scheme))'")
        }
        self.scheme = String(decoding: scheme.map(Self.lowercased), as: UTF8.self)

        var rest = withoutFragment[(colon + 1)...]
        var queryText = rest[rest.endIndex...]
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            queryText = rest[(question + 1)...]
            rest = rest[..<question]
        }
        var segments: [String] = []
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let host = rest[..<end]
            rest = rest[end...]
            guard !host.contains(UInt8(ascii: "@")) && !host.contains(UInt8(ascii: ":")) else {
                throw .malformedURL(reason: "user info and ports are not allowed in a deep link ('\(Self.text(host))')")
            }
            if !host.isEmpty {
                segments.append(try Self.decode(host, in: "the host").lowercased())
            }
        }
        for piece in rest.split(separator: UInt8(ascii: "/")) {
            segments.append(try Self.decode(piece, in: "path segment '\(Self.text(piece))'"))
        }
        self.segments = segments

        var query: [String: String] = [:]
        for item in queryText.split(separator: UInt8(ascii: "&")) {
            let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
            let key = try Self.decode(item[..<equals], in: "query item '\(Self.text(item))'")
            let value = equals < item.endIndex ? try Self.decode(item[(equals + 1)...], in: "query item '\(Self.text(item))'") : ""
            query[key] = value
        }
        self.query = query
    }

    /// The error for a URL holding a byte outside printable ASCII, naming its first such character.
    private static func unprintable(_ text: String) -> DeepLinkError {
        let bad = text.unicodeScalars.first { $0.value < 0x21 || $0.value > 0x7E } ?? " "
        let what = bad == " " ? "a space" : "the character U+\(String(bad.value, radix: 16, uppercase: true))"
        return .malformedURL(reason: "contains \(what); percent-encode it")
    }

    /// Whether `text` is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1).
    static func isValidScheme(_ text: some StringProtocol) -> Bool {
        isValidScheme(Array(text.utf8)[...])
    }

    private static func isValidScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy {
            isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// A piece of the URL as text, for messages (the URL is ASCII by then).
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-decodes one piece (already split off), requiring `%XX` hex escapes and valid UTF-8.
    ///
    /// - Parameters:
    ///   - piece: the raw bytes.
    ///   - place: where the piece comes from, for the error message (built only for one).
    /// - Throws: ``DeepLinkError/malformedURL(reason:)``.
    static func decode(_ piece: ArraySlice<UInt8>, in place: @autoclosure () -> String) throws(DeepLinkError) -> String {
        guard piece.contains(UInt8(ascii: "%")) else { return text(piece) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(piece.count)
        var iterator = piece.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let high = iterator.next()
            let low = iterator.next()
            guard let high, let low, let h = hexValue(high), let l = hexValue(low) else {
                let escape = "%" + String(decoding: [high, low].compactMap { $0 }, as: UTF8.self)
                throw .malformedURL(reason: "invalid percent escape '\(escape)' in \(place())")
            }
            // D-Bus strings cannot carry a NUL byte, so a decoded NUL could never be shown or sent back.
            guard h != 0 || l != 0 else { throw .malformedURL(reason: "'%00' (a NUL byte) in \(place())") }
            bytes.append(h << 4 | l)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .malformedURL(reason: "percent escapes in \(place()) are not valid UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
