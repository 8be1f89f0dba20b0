import DBusTestSupport

/// The fuzzer's only source of randomness is one `SplitMix64` (DBusTestSupport) seeded by `--seed`, so one
/// printed seed replays one run: nothing reads the clock or `SystemRandomNumberGenerator` after that.
extension SplitMix64 {
    /// True with probability `probability` (0...1).
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// One element of a non-empty array, or `fallback` for an empty one.
    mutating func pick<T>(_ elements: [T], or fallback: T) -> T {
        elements.isEmpty ? fallback : elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    /// An index chosen by relative weights (all ≥ 0, at least one > 0); never one whose weight is 0.
    mutating func weighted(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var roll = Double.random(in: 0..<max(total, .leastNonzeroMagnitude), using: &self)
        for (index, weight) in weights.enumerated() where weight > 0 {
            if roll < weight { return index }
            roll -= weight
        }
        // Rounding can leave a sliver past the last weight: that belongs to the last positive one.
        return weights.lastIndex { $0 > 0 } ?? 0
    }

    /// A length that is usually small but sometimes near `maximum`: log-uniform over 0...maximum.
    mutating func length(upTo maximum: Int) -> Int {
        guard maximum > 0 else { return 0 }
        let bits = Int.random(in: 0...(Int.bitWidth - maximum.leadingZeroBitCount), using: &self)
        let ceiling = bits == 0 ? 0 : min(maximum, (1 << bits) - 1)
        return Int.random(in: 0...ceiling, using: &self)
    }
}
