/// JSON written byte by byte for the hot paths (journal lines, snapshots, `GetState`), exactly as `JSONEncoder`
/// with `[.sortedKeys, .withoutEscapingSlashes]` writes it — so files and replies do not change — at a
/// fraction of its cost (it spends about 100 ns per byte).
///
/// Only ASCII text is written here: for ASCII keys the sorted order is byte order, and strings are escaped by
/// ``JSONString``'s one rule, `JSONEncoder`'s (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx`).
/// Non-ASCII text, where `JSONEncoder` sorts keys by Unicode rules, makes a writer return `false` so the
/// caller falls back to `JSONEncoder`.
/// Tests compare both on random input.
public enum DirectJSON {
    /// Appends `text` as a JSON string literal; `false` (with `out` partly written) for non-ASCII text.
    public static func appendString(_ text: String, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "\""))
        if JSONString.appendPlain(text, asciiOnly: true, to: &out) {
            out.append(UInt8(ascii: "\""))
            return true
        }
        for byte in text.utf8 {
            guard byte < 0x80 else { return false }
            JSONString.appendEscaped(byte, to: &out)
        }
        out.append(UInt8(ascii: "\""))
        return true
    }

    /// `{"k":"v",…}` with keys in byte order; `false` for non-ASCII keys or values.
    public static func appendStringDictionary(_ dictionary: [String: String], to out: inout [UInt8]) -> Bool {
        // A screen's parameters are most often one id: nothing to sort, so no key array, sort or lookup on the
        // journal's path for every command.
        if dictionary.count <= 1 {
            out.append(UInt8(ascii: "{"))
            for (key, value) in dictionary {
                guard appendString(key, to: &out) else { return false }
                out.append(UInt8(ascii: ":"))
                guard appendString(value, to: &out) else { return false }
            }
            out.append(UInt8(ascii: "}"))
            return true
        }
        var keys: [String] = []
        keys.reserveCapacity(dictionary.count)
        for key in dictionary.keys {
            guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            keys.append(key)
        }
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        out.append(UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard appendString(key, to: &out) else { return false }
            out.append(UInt8(ascii: ":"))
            guard let value = dictionary[key], appendString(value, to: &out) else { return false }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// A key with its quotes and colon, e.g. `"id":`; keys are the caller's ASCII literals.
    public static func appendKey(_ key: StaticString, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// One object's members, written in the order the caller gives (the sorted one), with the commas between.
    ///
    /// ```swift
    /// var object = DirectJSON.Object(&out)
    /// object.key("id", &out); DirectJSON.appendInteger(7, to: &out)
    /// object.close(&out)                                   // {"id":7}
    /// ```
    public struct Object {
        private var isEmpty = true

        /// Opens the object (`{`).
        public init(_ out: inout [UInt8]) { out.append(UInt8(ascii: "{")) }

        /// Starts the member `key`; its value comes next.
        public mutating func key(_ key: StaticString, _ out: inout [UInt8]) {
            if !isEmpty { out.append(UInt8(ascii: ",")) }
            isEmpty = false
            DirectJSON.appendKey(key, to: &out)
        }

        /// The member `key` with a whole-number value, or nothing when `value` is nil (as `JSONEncoder` leaves
        /// out a nil optional).
        public mutating func integer(_ key: StaticString, _ value: Int?, _ out: inout [UInt8]) {
            guard let value else { return }
            integer(key, value, &out)
        }

        /// The member `key` with a whole-number value.
        public mutating func integer(_ key: StaticString, _ value: Int, _ out: inout [UInt8]) {
            self.key(key, &out)
            DirectJSON.appendInteger(value, to: &out)
        }

        /// The member `key` with an unsigned value (a window number, a session version, a time).
        public mutating func integer(_ key: StaticString, _ value: some UnsignedInteger, _ out: inout [UInt8]) {
            self.key(key, &out)
            DirectJSON.appendInteger(value, to: &out)
        }

        /// Closes the object (`}`).
        public func close(_ out: inout [UInt8]) { out.append(UInt8(ascii: "}")) }
    }

    /// A JSON array written element by element, as ``Object`` writes members:
    ///
    /// ```swift
    /// var array = DirectJSON.Array(&out)
    /// for id in ids { array.element(&out); DirectJSON.appendInteger(id, to: &out) }
    /// array.close(&out)                                    // [1,2,3]
    /// ```
    public struct Array {
        private var isEmpty = true

        /// Opens the array (`[`).
        public init(_ out: inout [UInt8]) { out.append(UInt8(ascii: "[")) }

        /// Starts the next element; its value comes next.
        public mutating func element(_ out: inout [UInt8]) {
            if !isEmpty { out.append(UInt8(ascii: ",")) }
            isEmpty = false
        }

        /// Closes the array (`]`).
        public func close(_ out: inout [UInt8]) { out.append(UInt8(ascii: "]")) }
    }

    /// A whole number as JSON writes it.
    public static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        // Through the stack, not a string: journal lines and steps carry several numbers per change.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxDecimalLength) { buffer in
            let count = writeDecimal(value, into: buffer)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// A whole number of any width as JSON writes it (snapshots carry `UInt64` versions and times).
    public static func appendInteger(_ value: some BinaryInteger, to out: inout [UInt8]) {
        if let narrow = Int(exactly: value) {
            appendInteger(narrow, to: &out)
        } else {
            out.append(contentsOf: String(value).utf8)
        }
    }

    /// `value` in decimal, exactly as `String(value)`.
    ///
    /// Journal lines, steps and object paths carry a few numbers on every change; the standard library's
    /// generic integer formatting is correct but touches several times more code per call, which is most of
    /// what a sequential call costs (Docs/performance.md).
    public static func decimal(_ value: Int) -> String {
        String(unsafeUninitializedCapacity: maxDecimalLength) { writeDecimal(value, into: $0) }
    }

    /// The longest decimal an `Int` has: 20 bytes for `Int.min` ("-9223372036854775808").
    private static var maxDecimalLength: Int { 20 }

    /// Writes `value` in decimal at the start of `buffer` (at least ``maxDecimalLength`` bytes); returns the
    /// number of bytes written.
    private static func writeDecimal(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let sign = value < 0 ? 1 : 0
        if sign == 1 { buffer[0] = UInt8(ascii: "-") }
        var index = sign + digits
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return sign + digits
    }

    /// A lowercase hexadecimal digit for 0…15.
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
