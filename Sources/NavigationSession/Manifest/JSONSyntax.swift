/// Locates the first syntax error in JSON text, because Foundation's decoder on Linux does not say where.
///
/// A small recursive-descent scanner over UTF-8 bytes; it validates structure only (no value building).
/// Lines and columns are 1-based; columns count UTF-8 bytes. One pass, so linear in the text.
///
/// With ``Rules`` it also refuses what Foundation's decoder lets through: a key given twice in one object
/// (the decoder keeps one of them silently) and strings over the run-time limits (a manifest's 64 MB title).
struct JSONSyntax {
    /// Where and why the text is not acceptable JSON.
    struct Failure: Error, Hashable {
        var line: Int
        var column: Int
        var reason: String
        var problem: Problem = .syntax
    }

    /// What a ``Failure`` is, beyond its message.
    enum Problem: Hashable {
        /// Not JSON.
        case syntax
        /// `key` appears twice in one object (the failure points at the second).
        case duplicateKey(String)
        /// An object key (a name) of `bytes` UTF-8 bytes, over `limit`.
        case keyTooLong(bytes: Int, limit: Int)
        /// A string value (a text) of `bytes` UTF-8 bytes, over `limit`.
        case stringTooLong(bytes: Int, limit: Int)
    }

    /// Checks beyond syntax; lengths are of the decoded strings, in UTF-8 bytes.
    struct Rules {
        var maxKeyBytes: Int
        var maxStringBytes: Int
    }

    private let bytes: [UInt8]
    private let rules: Rules?
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    private init(_ text: String, rules: Rules?) {
        bytes = Array(text.utf8)
        self.rules = rules
    }

    /// Returns the first syntax error in `text` (or, with `rules`, the first key given twice in one object
    /// or string over a limit), or `nil` when it is well-formed JSON.
    static func firstError(in text: String, rules: Rules? = nil) -> Failure? {
        var scanner = JSONSyntax(text, rules: rules)
        do throws(Failure) {
            scanner.skipSpace()
            try scanner.value()
            scanner.skipSpace()
            if scanner.index < scanner.bytes.count { throw scanner.fail("unexpected text after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private func fail(_ reason: String, at position: Int? = nil, _ problem: Problem = .syntax) -> Failure {
        let (line, column) = lineAndColumn(of: position ?? index)
        return Failure(line: line, column: column, reason: reason, problem: problem)
    }

    /// The 1-based line and column (in UTF-8 bytes) of the byte at `offset`.
    private func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() throws(Failure) {
        guard let byte = current else { throw fail("unexpected end of text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""):
            let start = index
            let length = try string(keeping: false).length
            if let rules, length > rules.maxStringBytes {
                throw fail(
                    "a string of \(length) bytes; texts are limited to \(rules.maxStringBytes)", at: start,
                    .stringTooLong(bytes: length, limit: rules.maxStringBytes))
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func container(close: UInt8, keyed: Bool) throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth)") }
        index += 1
        skipSpace()
        if current == close {
            index += 1
            depth -= 1
            return
        }
        var keys: Set<[UInt8]> = []
        while true {
            if keyed {
                guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let start = index
                let key = try string(keeping: rules != nil)
                if let rules {
                    guard key.length <= rules.maxKeyBytes else {
                        throw fail(
                            "a key of \(key.length) bytes; names are limited to \(rules.maxKeyBytes)", at: start,
                            .keyTooLong(bytes: key.length, limit: rules.maxKeyBytes))
                    }
                    guard keys.insert(key.decoded).inserted else {
                        let name = String(decoding: key.decoded, as: UTF8.self)
                        throw fail("duplicate key \"\(name)\" in one object", at: start, .duplicateKey(name))
                    }
                }
                skipSpace()
                guard current == UInt8(ascii: ":") else { throw fail("expected ':' after the key") }
                index += 1
                skipSpace()
            }
            try value()
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                continue
            }
            guard current == close else {
                throw fail(current == nil ? "unexpected end of text" : "expected ',' or '\(Character(Unicode.Scalar(close)))'")
            }
            index += 1
            depth -= 1
            return
        }
    }

    /// Scans a string; returns its decoded UTF-8 length and, when `keeping`, its decoded bytes (keys are
    /// compared decoded, so `"a"` and `"\u0061"` are the same key).
    private mutating func string(keeping: Bool) throws(Failure) -> (length: Int, decoded: [UInt8]) {
        index += 1
        var length = 0
        var decoded: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if pendingHighSurrogate != nil { Self.append(0xFFFD, to: &decoded, length: &length, keeping: keeping) }
                return (length, decoded)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { break }
                if escaped == UInt8(ascii: "u") {
                    var unit: UInt32 = 0
                    for _ in 0..<4 {
                        index += 1
                        guard let hex = current, let digit = Self.hexValue(hex) else {
                            throw fail("invalid \\u escape")
                        }
                        unit = unit << 4 | digit
                    }
                    if let high = pendingHighSurrogate, (0xDC00...0xDFFF).contains(unit) {
                        pendingHighSurrogate = nil
                        let scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                        Self.append(scalar, to: &decoded, length: &length, keeping: keeping)
                    } else {
                        if pendingHighSurrogate != nil {
                            Self.append(0xFFFD, to: &decoded, length: &length, keeping: keeping)
                            pendingHighSurrogate = nil
                        }
                        if (0xD800...0xDBFF).contains(unit) {
                            pendingHighSurrogate = unit
                        } else {
                            let scalar = (0xDC00...0xDFFF).contains(unit) ? 0xFFFD : unit
                            Self.append(scalar, to: &decoded, length: &length, keeping: keeping)
                        }
                    }
                    index += 1
                    continue
                } else if let plain = Self.unescaped(escaped) {
                    if pendingHighSurrogate != nil {
                        Self.append(0xFFFD, to: &decoded, length: &length, keeping: keeping)
                        pendingHighSurrogate = nil
                    }
                    Self.append(UInt32(plain), to: &decoded, length: &length, keeping: keeping)
                } else {
                    throw fail("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
                }
                index += 1
            case 0..<0x20:
                throw fail("control character in a string")
            default:
                if pendingHighSurrogate != nil {
                    Self.append(0xFFFD, to: &decoded, length: &length, keeping: keeping)
                    pendingHighSurrogate = nil
                }
                length += 1
                if keeping { decoded.append(byte) }
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    /// Counts (and when `keeping`, appends) the UTF-8 encoding of an escaped scalar.
    private static func append(_ scalar: UInt32, to decoded: inout [UInt8], length: inout Int, keeping: Bool) {
        let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        let encoded = Array(String(value).utf8)
        length += encoded.count
        if keeping { decoded += encoded }
    }

    /// The byte a one-letter escape stands for (`\n` → 0x0A), or `nil` for an invalid escape.
    private static func unescaped(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for expected in word.utf8 {
            guard current == expected else { throw fail("invalid literal, expected '\(word)'") }
            index += 1
        }
    }

    private mutating func number() throws(Failure) {
        if current == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw fail("invalid number") }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("invalid number: digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("invalid number: digits expected in the exponent") }
        }
    }

    private mutating func digits() -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

// MARK: - Where a key path is in the text

extension JSONSyntax {
    /// Where a key path (`scenes[1].root.tabs[0].model`, as manifest errors name one) is in JSON text.
    struct Location {
        /// The line and column of the member's key, for a path that ends at an object member.
        var key: (line: Int, column: Int)?
        /// The line and column of the value the path reaches: the whole path's, or (when not `complete`) the
        /// innermost value of the longest prefix of it found (the object that lacks a missing key).
        var value: (line: Int, column: Int)
        /// Whether the whole path was found.
        var complete: Bool
    }

    /// Finds `path` in `text` (well-formed JSON; `nil` otherwise) with the same single pass as
    /// ``firstError(in:rules:)``, skipping every value the path does not enter. `(root)` and the empty path
    /// are the whole document. A key holding `.` or `[` is matched as written, so `dialogs.a.b` finds the
    /// dialog `a.b`.
    static func locate(_ path: String, in text: String) -> Location? {
        var scanner = JSONSyntax(text, rules: nil)
        scanner.skipSpace()
        let remaining = path == "(root)" ? Substring("") : Substring(path)
        return try? scanner.find(remaining, keyStart: nil)
    }

    private mutating func find(_ remaining: Substring, keyStart: Int?) throws(Failure) -> Location {
        let here = index
        func located(_ complete: Bool) -> Location {
            Location(key: keyStart.map(lineAndColumn(of:)), value: lineAndColumn(of: here), complete: complete)
        }
        if remaining.isEmpty { return located(true) }
        switch current {
        case UInt8(ascii: "{"):
            let wanted = remaining.first == "." ? remaining.dropFirst() : remaining
            index += 1
            skipSpace()
            // A key holding `.` may match a shorter key first (`a` for `a.b`): a match that does not lead to the
            // whole path is kept as the fallback, and the search goes on.
            var fallback: Location?
            while current == UInt8(ascii: "\"") {
                let start = index
                let name = String(decoding: try string(keeping: true).decoded, as: UTF8.self)
                skipSpace()
                index += 1  // ':' (the text is well-formed)
                skipSpace()
                if wanted.hasPrefix(name) {
                    let after = wanted.dropFirst(name.count)
                    if after.isEmpty || after.first == "." || after.first == "[" {
                        let valueStart = index
                        let found = try find(after, keyStart: start)
                        if found.complete { return found }
                        fallback = fallback ?? found
                        index = valueStart
                    }
                }
                try value()
                skipSpace()
                guard current == UInt8(ascii: ",") else { break }
                index += 1
                skipSpace()
            }
            return fallback ?? located(false)
        case UInt8(ascii: "["):
            guard remaining.first == "[", let close = remaining.firstIndex(of: "]"),
                let wanted = Int(remaining[remaining.index(after: remaining.startIndex)..<close]), wanted >= 0
            else { return located(false) }
            let after = remaining[remaining.index(after: close)...]
            index += 1
            skipSpace()
            var element = 0
            while current != UInt8(ascii: "]"), current != nil {
                if element == wanted { return try find(after, keyStart: nil) }
                try value()
                skipSpace()
                guard current == UInt8(ascii: ",") else { break }
                index += 1
                skipSpace()
                element += 1
            }
            return located(false)
        default:
            return located(false)
        }
    }
}
