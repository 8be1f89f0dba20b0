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

    init(parsing text: String) throws(DeepLinkError) {
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x21 || $0.value > 0x7E }) {
            let what = bad == " " ? "a space" : "the character U+\(String(bad.value, radix: 16, uppercase: true))"
            throw .malformedURL(reason: "contains \(what); percent-encode it")
        }
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let colon = withoutFragment.firstIndex(of: ":") else {
            throw .malformedURL(reason: "no scheme (expected e.g. myapp://…)")
        }
        let scheme = withoutFragment[..<colon]
        guard Self.isValidScheme(scheme) else {
            throw .malformedURL(reason: "invalid scheme '\(scheme)'")
        }
        self.scheme = scheme.lowercased()

        var rest = withoutFragment[withoutFragment.index(after: colon)...]
        var queryText: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        var segments: [String] = []
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            let host = rest[..<end]
            rest = rest[end...]
            guard !host.contains("@") && !host.contains(":") else {
                throw .malformedURL(reason: "user info and ports are not allowed in a deep link ('\(host)')")
            }
            if !host.isEmpty {
                segments.append(try Self.decode(host, in: "the host").lowercased())
            }
        }
        for piece in rest.split(separator: "/") {
            segments.append(try Self.decode(piece, in: "path segment '\(piece)'"))
        }
        self.segments = segments

        var query: [String: String] = [:]
        for item in queryText.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(pair[0], in: "query item '\(item)'")
            let value = pair.count > 1 ? try Self.decode(pair[1], in: "query item '\(item)'") : ""
            query[key] = value
        }
        self.query = query
    }

    /// Whether `text` is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1).
    static func isValidScheme(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || $0 == "+" || $0 == "-" || $0 == "."
        }
    }

    /// Percent-decodes one piece (already split off), requiring `%XX` hex escapes and valid UTF-8.
    ///
    /// - Parameters:
    ///   - piece: the raw text.
    ///   - place: where the piece comes from, for the error message.
    /// - Throws: ``DeepLinkError/malformedURL(reason:)``.
    static func decode(_ piece: Substring, in place: String) throws(DeepLinkError) -> String {
        guard piece.contains("%") else { return String(piece) }
        var bytes: [UInt8] = []
        var iterator = piece.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let high = iterator.next()
            let low = iterator.next()
            guard let high, let low, let h = hexValue(high), let l = hexValue(low) else {
                let escape = "%" + String(decoding: [high, low].compactMap { $0 }, as: UTF8.self)
                throw .malformedURL(reason: "invalid percent escape '\(escape)' in \(place)")
            }
            // D-Bus strings cannot carry a NUL byte, so a decoded NUL could never be shown or sent back.
            guard h != 0 || l != 0 else { throw .malformedURL(reason: "'%00' (a NUL byte) in \(place)") }
            bytes.append(h << 4 | l)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .malformedURL(reason: "percent escapes in \(place) are not valid UTF-8")
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
