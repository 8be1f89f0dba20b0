/// The one place numbers from input meet arithmetic (Docs/reliability.md, "Numbers from input").
///
/// Every integer a client, a manifest or a journal gives (a delay, a deadline, a count, an index, a version) is
/// range-checked where it is decoded (`decodeInteger(_:in:)` on a JSON container) and only then used; where a
/// sum or a difference of two such numbers is still needed (a deadline: now + a delay), it saturates instead of
/// trapping, so no input can make the daemon's arithmetic overflow.
public enum CheckedNumber {
    /// `a + b`, saturating at the type's `min`/`max` (`Int64` for deadlines, `Int` for counts).
    @inlinable
    public static func adding<Number: FixedWidthInteger & SignedInteger>(_ a: Number, _ b: Number) -> Number {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }

    /// `a - b`, saturating at `Int64.min`/`Int64.max`.
    @inlinable
    public static func subtracting(_ a: Int64, _ b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return difference }
        return b < 0 ? .max : .min
    }

    /// `a * b`, saturating at `Int.min`/`Int.max`.
    @inlinable
    public static func multiplying(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        guard overflow else { return product }
        return (a < 0) == (b < 0) ? .max : .min
    }

    /// The text of a JSON number that is not an integer in `range`, for an error message: `1e300`, `2.5`.
    static func describe(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        if value == value.rounded(), abs(value) < 1e18 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension KeyedDecodingContainer where K == JSONKey {
    /// An integer key's value, or `nil` when the key is absent; refuses a number that is not an integer in `range`
    /// (a fraction, `1e300`, a value past `Int64`) with a message naming the key and the range, never a trap or a
    /// "not valid JSON".
    func decodeInteger(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        let key = JSONKey(key)
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let value: Int
        do {
            value = try decode(Int.self, forKey: key)
        } catch {
            // Not representable as an Int: a fraction, an exponent past 2^63, or not a number at all.
            if let number = try? decode(Double.self, forKey: key) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self,
                    debugDescription: "\(key.stringValue) must be \(Self.describe(range)) (got \(CheckedNumber.describe(number)))")
            }
            throw error
        }
        guard range.contains(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(key.stringValue) must be \(Self.describe(range)) (got \(value))")
        }
        return value
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (.min, .max): "an integer"
        case (let low, .max): "an integer of at least \(low)"
        case (let low, let high): "an integer in \(low)…\(high)"
        }
    }

    /// ``decodeInteger(_:in:)`` for a required key.
    func decodeInteger(required key: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = try decodeInteger(key, in: range) else {
            throw DecodingError.keyNotFound(
                JSONKey(key), .init(codingPath: codingPath, debugDescription: "\(key) is missing"))
        }
        return value
    }
}
