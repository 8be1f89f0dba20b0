/// "Did you mean …?" for names a caller typed: keys, screens, scenes, tabs, commands.
public enum Spelling {
    /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
    /// transpositions), when it is close enough to be a likely typo: at most one edit for words of up to
    /// four characters, two up to eight, three beyond. Ties go to the earlier candidate.
    ///
    /// ```swift
    /// Spelling.closest(to: "animate", in: ["from", "animated"])   // "animated"
    /// Spelling.closest(to: "zzz", in: ["from", "animated"])       // nil
    /// ```
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        // Bounded so a long input never costs more than a short one: names worth suggesting are short.
        guard !typed.isEmpty, typed.count <= 64 else { return nil }
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let other = Array(candidate.lowercased().unicodeScalars)
            guard abs(other.count - typed.count) <= allowed, other.count <= 64 else { continue }
            let distance = editDistance(typed, other)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
