extension Array {
    /// The elements in their order in odd repetitions (counting from 1) and reversed in even ones.
    ///
    /// A target that always runs right after the same other one inherits that one's effect on the machine (its
    /// caches, its share of a hypervisor's time slice); turning the order round every other repetition gives each
    /// target each position equally often.
    func alternating(_ repetition: Int) -> [Element] {
        repetition % 2 == 1 ? self : reversed()
    }
}
