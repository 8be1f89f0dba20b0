/// The fuzzer's only source of randomness: SplitMix64, so one printed seed replays one run.
///
/// Every random choice in a run comes from one instance seeded by `--seed`; nothing reads the clock or
/// `SystemRandomNumberGenerator` after the seed is chosen.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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
