/// Selectable custom containers: `selectChild` and the `selectedChild` report.
///
/// A custom container's active branch is its selected child (``Node/selectedChild``); selecting another child
/// keeps every child live (no lifecycle, like a tab switch) and records a ``NavigationStep/selectChild(container:child:previous:)``.
extension NavigationWindow {
    /// `selectChild`: the container (`reference`, or the nearest custom container at or above `origin`) selects
    /// `selector`. Selected already: no change. O(depth + children).
    func selectChild(
        _ selector: ChildSelector, of reference: ModelReference?, from origin: Node
    ) throws(NavigationError) {
        let container: Node
        if let reference {
            container = try attachedNode(try resolve(reference))
            guard case .custom = container.kind else { throw .wrongKind(container.id, expected: "custom container") }
        } else {
            guard let found = nearestCustomContainer(from: origin) else { throw .noContainer(from: origin.id) }
            container = found
        }
        let index = try childIndex(selector, in: container)
        select(index, in: container)
    }

    /// The index `selector` names among `container`'s children.
    func childIndex(_ selector: ChildSelector, in container: Node) throws(NavigationError) -> Int {
        let count = container.customChildren.count
        switch selector {
        case .index(let index):
            guard container.customChildren.indices.contains(index) else {
                throw .unknownChild(container: container.id, child: "index \(index)", count: count)
            }
            return index
        case .model(let reference):
            let id = try resolve(reference)
            // A child's attachment carries its index: O(1), no scan of the children.
            guard let child = nodes[id], child.parent == container.id, case .custom(let index) = child.attachment,
                container.customChildren.indices.contains(index), container.customChildren[index] == id
            else {
                throw .unknownChild(container: container.id, child: "model \(reference)", count: count)
            }
            return index
        }
    }

    /// Selects child `index` of `container` (journaled, a step when it changes).
    func select(_ index: Int, in container: Node) {
        guard index != container.selectedChild, container.customChildren.indices.contains(index) else { return }
        tx.undo.append(.selectedChild(container, container.selectedChild))
        let previous = container.selectedCustomChild ?? container.id
        container.selectedChild = index
        tx.steps.append(
            .selectChild(container: container.id, child: container.customChildren[index], previous: previous))
        tx.markModified(container.id)
    }

    /// The nearest custom container at or above `start`. O(depth).
    func nearestCustomContainer(from start: Node) -> Node? {
        var current: Node? = start
        while let node = current {
            if case .custom = node.kind { return node }
            current = parentNode(node)
        }
        return nil
    }
}

/// An integer is an index, a string a `"tag:…"` reference, an object `{"model": <id or "tag:…">}` a model.
extension ChildSelector: Codable {
    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: JSONKey.self) {
            self = .model(try c.decode(ModelReference.self, forKey: "model"))
            try StrictKeys.check(decoder, allowed: ["model"])
            return
        }
        let c = try decoder.singleValueContainer()
        if let index = try? c.decode(Int.self) {
            self = .index(index)
            return
        }
        guard let text = try? c.decode(String.self), let reference = ModelReference(tagReference: text) else {
            throw DecodingError.dataCorruptedError(
                in: c,
                debugDescription: "a child is an index (0, 1, …), a string \"tag:<tag>\" or an object {\"model\": <id>}")
        }
        self = .model(reference)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .index(let index):
            var c = encoder.singleValueContainer()
            try c.encode(index)
        case .model(.tag(let tag)):
            var c = encoder.singleValueContainer()
            try c.encode(ModelReference.tagPrefix + tag)
        case .model(let reference):
            var c = encoder.container(keyedBy: JSONKey.self)
            try c.encode(reference, forKey: "model")
        }
    }
}
