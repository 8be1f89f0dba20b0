/// JSON string literals for hand-assembled JSON (route arrays, journal lines, command arguments).
///
/// One escaping rule for every module, so hand-written JSON and `JSONEncoder` output decode alike.
public enum JSONString {
    /// `text` as a JSON string literal: `"`, `\` and control characters escaped (RFC 8259 §7); every other
    /// character, including non-ASCII, is kept as it is.
    public static func literal(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }

    /// Appends ``literal(_:)`` of `text` to `out`, byte for byte the same, without building a string.
    public static func appendLiteral(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // The escaped characters are all ASCII, so UTF-8 bytes can be tested one by one: a byte of a multi-byte
        // character is never below 0x80.
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                // Lowercase hex, as `String(_:radix:)` writes it in `literal`.
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(DirectJSON.hexDigit(byte >> 4))
                out.append(DirectJSON.hexDigit(byte & 0xF))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `json` holds a `\u0000` escape inside a string: a NUL byte, which no D-Bus string can carry,
    /// so input that would put one into a name, text or message is refused where it enters.
    ///
    /// One pass over the bytes; an escaped backslash (`\\u0000`) is not an escape of NUL.
    public static func containsNULEscape(_ json: String) -> Bool {
        var bytes = json.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "\\") else { continue }
            guard bytes.next() == UInt8(ascii: "u") else { continue }
            var digits = 0
            while digits < 4, bytes.next() == UInt8(ascii: "0") { digits += 1 }
            if digits == 4 { return true }
        }
        return false
    }
}
