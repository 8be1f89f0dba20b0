/// JSON string literals for hand-assembled JSON (route arrays, journal lines, command arguments).
///
/// One escaping rule for every module and writer — `JSONEncoder`'s — so hand-written JSON, ``DirectJSON`` and
/// `JSONEncoder` output are the same bytes (`JSONStringTests` compares them).
public enum JSONString {
    /// `text` as a JSON string literal, byte for byte as `JSONEncoder` writes it with `.withoutEscapingSlashes`:
    /// `"`, `\` and control characters escaped (RFC 8259 §7; `\b`, `\f`, `\n`, `\r`, `\t`, else `\u00xx`),
    /// every other character, including non-ASCII, kept as it is.
    public static func literal(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendLiteral(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `pairs` as a compact JSON object of strings, keys sorted: `{"a":"1","b":""}` (`{}` when empty).
    package static func object(_ pairs: [String: String]) -> String {
        "{" + pairs.sorted { $0.key < $1.key }.map { literal($0.key) + ":" + literal($0.value) }.joined(separator: ",") + "}"
    }

    /// Appends ``literal(_:)`` of `text` to `out`, without building a string. The one escaping rule of the
    /// project's JSON: ``DirectJSON`` writes its strings with it too.
    public static func appendLiteral(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // The escaped characters are all ASCII, so UTF-8 bytes can be tested one by one: a byte of a multi-byte
        // character is never below 0x80.
        if !appendPlain(text, asciiOnly: false, to: &out) {
            for byte in text.utf8 { appendEscaped(byte, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `text`'s bytes in one copy when none needs an escape (and, with `asciiOnly`, every one is ASCII),
    /// after one scan: most texts (screen names, ids, keys) are such. `false`, with nothing appended, otherwise —
    /// the caller then writes the text byte by byte.
    @inline(__always)
    static func appendPlain(_ text: String, asciiOnly: Bool, to out: inout [UInt8]) -> Bool {
        let highest: UInt8 = asciiOnly ? 0x7F : 0xFF
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes
            where byte < 0x20 || byte > highest || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        return copied == true
    }

    /// Appends one UTF-8 byte of a string's content, escaped as `JSONEncoder` escapes it.
    @inline(__always)
    static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0..<0x20:
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            out.append(DirectJSON.hexDigit(byte >> 4))
            out.append(DirectJSON.hexDigit(byte & 0xF))
        default: out.append(byte)
        }
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
