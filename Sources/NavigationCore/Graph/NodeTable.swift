/// A window's models by id: the one map every walk of the graph reads, several dozen times per change.
///
/// A `Dictionary<ModelID, Node>` hashes each id with SipHash (a seeded hasher built and finalised per lookup,
/// ≈ 150 instructions); this table multiplies the id by the golden-ratio constant and probes linearly, ≈ 15.
/// Ids are the window's own counter (consecutive integers), which the multiplicative hash spreads evenly; a
/// state file with ids chosen to collide can only make lookups slower, never wrong, and stays within the
/// model limit. Open addressing with backward-shift deletion (no tombstones); the table stays at most half
/// full and shrinks when a removal leaves it an eighth full, so iterating ``values`` is O(models).
/// A value type (copy-on-write through its array), like the dictionary it replaces.
struct NodeTable {
    /// A slot is empty when `node` is `nil`; any `Int` is a valid key.
    private struct Slot {
        var key: Int
        var node: Node?
    }

    private var slots: [Slot]
    /// How many slots hold a node.
    private(set) var count = 0

    init() {
        slots = []
    }

    var isEmpty: Bool { count == 0 }

    /// How many slots the table has (twice the count or more, a power of two; 0 before the first insertion).
    var capacity: Int { slots.count }

    /// The slot where `key` sits or would go; the table has at least one empty slot.
    @inline(__always)
    private func index(of key: Int) -> Int {
        let mask = slots.count &- 1
        var index = Self.home(key, mask: mask)
        while slots[index].node != nil, slots[index].key != key { index = (index &+ 1) & mask }
        return index
    }

    @inline(__always)
    private static func home(_ key: Int, mask: Int) -> Int {
        // Fibonacci hashing: the product's high bits are the well-mixed ones.
        let product = UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: (product ^ (product >> 32))) & mask
    }

    subscript(id: ModelID) -> Node? {
        get {
            guard count > 0 else { return nil }
            return slots[index(of: id.rawValue)].node
        }
        set {
            if let node = newValue { insert(node, for: id.rawValue) } else { remove(id.rawValue) }
        }
    }

    private mutating func insert(_ node: Node, for key: Int) {
        if count > 0 {
            let index = index(of: key)
            if slots[index].node != nil {
                slots[index].node = node
                return
            }
        }
        if (count &+ 1) &* 2 > slots.count { resize(to: Swift.max(8, slots.count &* 2)) }
        slots[index(of: key)] = Slot(key: key, node: node)
        count &+= 1
    }

    private mutating func remove(_ key: Int) {
        guard count > 0 else { return }
        let mask = slots.count &- 1
        var hole = index(of: key)
        guard slots[hole].node != nil else { return }
        slots[hole].node = nil
        count &-= 1
        // Backward shift: pull each later member of the run into the hole when the hole lies between its home
        // slot and where it sits, so a lookup never stops early at the hole.
        var next = (hole &+ 1) & mask
        while slots[next].node != nil {
            let home = Self.home(slots[next].key, mask: mask)
            let distanceToNext = (next &- home) & mask
            let distanceToHole = (hole &- home) & mask
            if distanceToHole < distanceToNext {
                slots.swapAt(hole, next)
                hole = next
            }
            next = (next &+ 1) & mask
        }
        if slots.count > 8, count &* 8 < slots.count { resize(to: slots.count / 2) }
    }

    private mutating func resize(to capacity: Int) {
        let old = slots
        slots = Array(repeating: Slot(key: 0, node: nil), count: capacity)
        let mask = capacity &- 1
        for slot in old {
            guard let node = slot.node else { continue }
            var index = Self.home(slot.key, mask: mask)
            while slots[index].node != nil { index = (index &+ 1) & mask }
            slots[index] = Slot(key: slot.key, node: node)
        }
    }

    /// The nodes, in no particular order.
    var values: [Node] {
        var result: [Node] = []
        result.reserveCapacity(count)
        for slot in slots { if let node = slot.node { result.append(node) } }
        return result
    }
}
