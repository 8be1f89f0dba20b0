extension Array {
    /// The element at the lower median of `key` (with an even count, the lower of the two middle ones: the
    /// conservative figure); nil when empty. Every median the benchmark reports is this one.
    func lowerMedian<Key: Comparable>(by key: (Element) -> Key) -> Element? {
        guard !isEmpty else { return nil }
        return sorted { key($0) < key($1) }[(count - 1) / 2]
    }
}
