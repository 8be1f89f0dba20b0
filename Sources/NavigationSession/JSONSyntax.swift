/// Locates the first syntax error in JSON text, because Foundation's decoder on Linux does not say where.
///
/// A small recursive-descent scanner over UTF-8 bytes; it validates structure only (no value building).
/// Lines and columns are 1-based; columns count UTF-8 bytes.
struct JSONSyntax {
    /// Where and why the text is not JSON.
    struct Failure: Error, Hashable {
        var line: Int
        var column: Int
        var reason: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// Returns the first syntax error in `text`, or `nil` when it is well-formed JSON.
    static func firstError(in text: String) -> Failure? {
        var scanner = JSONSyntax(text)
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

    private func fail(_ reason: String) -> Failure {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return Failure(line: line, column: column, reason: reason)
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
        case UInt8(ascii: "\""): try string()
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
        while true {
            if keyed {
                guard current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                try string()
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

    private mutating func string() throws(Failure) {
        index += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { break }
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        index += 1
                        guard let hex = current, Self.isHex(hex) else { throw fail("invalid \\u escape") }
                    }
                } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                    throw fail("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
                }
                index += 1
            case 0..<0x20:
                throw fail("control character in a string")
            default:
                index += 1
            }
        }
        throw fail("unterminated string")
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

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
