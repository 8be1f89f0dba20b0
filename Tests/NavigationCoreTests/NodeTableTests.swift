import Testing

@testable import NavigationCore

/// ``NodeTable`` answers exactly as a dictionary of the same insertions and removals would.
struct NodeTableTests {
    func node(_ id: Int) -> Node {
        Node(id: ModelID(rawValue: id), screen: "s\(id)", params: [:], title: nil, kind: .screen)
    }

    /// A seeded sequence of inserts, replacements and removals over keys that collide in the table's home slots
    /// (multiples of a power of two, negatives, zero, consecutive runs), checked against a dictionary after each.
    @Test func agreesWithADictionaryOverRandomInsertsAndRemovals() {
        var table = NodeTable()
        var reference: [Int: Node] = [:]
        var generator = SetRoutesPropertyTests.Generator(state: 45)  // SplitMix64: a failure reproduces
        let keys = Array(-40...300) + (0..<64).map { $0 * 1024 } + [Int.max, Int.min, Int.max - 1]
        for _ in 0..<20_000 {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            if generator.next() % 3 == 0 {
                table[ModelID(rawValue: key)] = nil
                reference[key] = nil
            } else {
                let value = node(key)
                table[ModelID(rawValue: key)] = value
                reference[key] = value
            }
            #expect(table.count == reference.count)
            let probe = keys[Int(generator.next() % UInt64(keys.count))]
            #expect(table[ModelID(rawValue: probe)] === reference[probe])
        }
        for key in keys { #expect(table[ModelID(rawValue: key)] === reference[key]) }
        #expect(Set(table.values.map(ObjectIdentifier.init)) == Set(reference.values.map(ObjectIdentifier.init)))
    }

    @Test func anEmptyTableFindsNothingAndRemovesNothing() {
        var table = NodeTable()
        #expect(table[1] == nil)
        table[1] = nil
        #expect(table.isEmpty && table.values.isEmpty)
    }

    @Test func replacingAKeyKeepsTheCount() {
        var table = NodeTable()
        let (first, second) = (node(7), node(7))
        table[7] = first
        table[7] = second
        #expect(table.count == 1 && table[7] === second)
    }

    /// Copies are values: changing one leaves the other as it was.
    @Test func aCopyIsIndependent() {
        var table = NodeTable()
        for id in 1...20 { table[ModelID(rawValue: id)] = node(id) }
        var copy = table
        for id in 1...10 { copy[ModelID(rawValue: id)] = nil }
        #expect(table.count == 20 && copy.count == 10)
        #expect(table[3] != nil && copy[3] == nil)
    }

    /// Removing most of a large table shrinks it, so walking its values stays proportional to what is left.
    @Test func removalsShrinkTheTable() {
        var table = NodeTable()
        for id in 1...4096 { table[ModelID(rawValue: id)] = node(id) }
        for id in 1...4090 { table[ModelID(rawValue: id)] = nil }
        #expect(table.count == 6 && table.capacity <= 64)
        #expect(Set(table.values.map(\.id.rawValue)) == Set(4091...4096))
    }
}
