/// React Navigation's stack verbs on one stack: `popTo(name, params, {merge})`
/// (``NavigationCommand/popTo(screen:params:merge:)``) and `pop(count)` with a source (``NavigationCommand/pop(count:)``).
extension NavigationWindow {
    /// Removes `origin`'s element of its stack and the `count - 1` below it (never the root), keeping those above:
    /// a pop when it is the top. O(stack depth + depth of `origin` below the stack).
    func pop(_ count: Int, from origin: Node) throws(NavigationError) {
        guard count >= 1 else { throw .invalidCount(count) }
        let stack = try requireStack(from: origin)
        var index = stack.path.count - 1
        var current: Node? = origin
        while let node = current, node.id != stack.id {
            if node.parent == stack.id, case .path = node.attachment,
                let position = stack.path.firstIndex(where: { $0.model == node.id })
            {
                index = position
                break
            }
            current = parentNode(node)
        }
        guard index >= 1 else { throw .alreadyAtStackRoot(stack: stack.id) }
        let lower = max(index - count + 1, 1)
        if index == stack.path.count - 1 {
            truncatePath(stack, keeping: lower)
            return
        }
        var kept: [(Node, String?, isNew: Bool)] = []
        for (position, element) in stack.path.enumerated() where position < lower || position > index {
            guard let node = nodes[element.model] else { continue }
            kept.append((node, element.transition, isNew: false))
        }
        replacePath(stack, with: kept)
    }

    /// Back to the nearest element of `origin`'s stack showing `screen`, counting from the top (the top included),
    /// then its params set from `params` (merged when `merge`); when none shows it, a new element showing it takes
    /// the top element's place (the root's when the stack holds only its root). O(stack depth).
    func popTo(_ screen: String, params: [String: String]?, merge: Bool, from origin: Node) throws(NavigationError) {
        guard !screen.isEmpty else { throw .invalidSpec("popTo needs a screen name") }
        try configuration.limits.checkName(screen, "popTo's screen")
        let stack = try requireStack(from: origin)
        if let index = stack.path.indices.last(where: { nodes[stack.path[$0].model]?.screen == screen }),
            let target = nodes[stack.path[index].model]
        {
            if index + 1 < stack.path.count { truncatePath(stack, keeping: index + 1) }
            if let params { try update(target, params: params, title: nil, merge: merge) }
            return
        }
        try replaceTop(of: stack, with: StackElementSpec(ModelSpec.screen(screen, params: params ?? [:])))
    }

    /// The top element of `stack` replaced by a new model of `element` (the root, when it is the only element):
    /// the old top finishes, the new model takes its place with the element's transition (or the resolved one).
    func replaceTop(of stack: Node, with element: StackElementSpec) throws(NavigationError) {
        guard stack.path.count > 1 else {
            replaceStackRoot(stack, with: try instantiate(element.model, mayPresent: false))
            return
        }
        truncatePath(stack, keeping: stack.path.count - 1)
        let transitions = try resolvedTransitions(of: [element], on: stack)
        appendElements(stack, [(try instantiate(element.model, mayPresent: false), transitions.first ?? nil)])
    }

    /// `stackAppend` of elements some of which a screen's identity finds on the stack: in order, each found one is
    /// moved to the top with its params replaced (same id), each other one pushed. O(depth × elements).
    func appendIdentified(_ elements: [StackElementSpec], to stack: Node, catalog: ScreenCatalog) throws(NavigationError) {
        try checkDepth(stack.path.count + elements.count)
        let transitions = try resolvedTransitions(of: elements, on: stack)
        for (element, transition) in zip(elements, transitions) {
            guard let index = catalog.identical(element.model, in: stack.path, nodes: nodes),
                let existing = nodes[stack.path[index].model]
            else {
                appendElements(stack, [(try instantiate(element.model, mayPresent: false), transition)])
                continue
            }
            if index < stack.path.count - 1 {
                var path = stack.path
                let moved = path.remove(at: index)
                path.append(moved)
                replacePath(stack, with: path.compactMap { entry in nodes[entry.model].map { ($0, entry.transition, isNew: false) } })
            }
            try update(existing, params: catalog.withInitialParams(element.model).params, title: element.model.title, merge: false)
        }
    }

    /// How many earlier params `pushParams` keeps per model (the oldest goes first).
    public static let maxParamsHistory = 32

    /// `pushParams`: `node`'s params become `params` (an `update` step, validated like any), the ones it had kept.
    func pushParams(_ params: [String: String], on node: Node) throws(NavigationError) {
        let before = node.paramsHistory
        let previous = node.params
        try update(node, params: params, title: nil, merge: false)
        tx.undo.append(.paramsHistory(node, before))
        node.paramsHistory.append(previous)
        if node.paramsHistory.count > Self.maxParamsHistory { node.paramsHistory.removeFirst() }
        refreshCost(of: node)
    }

    /// Restores `node`'s params before its last `pushParams` (`goBack`).
    func popParams(of node: Node) throws(NavigationError) {
        guard let previous = node.paramsHistory.last else { return }
        tx.undo.append(.paramsHistory(node, node.paramsHistory))
        node.paramsHistory.removeLast()
        try update(node, params: previous, title: nil, merge: false)
        refreshCost(of: node)
    }

    /// Recomputes `node`'s content cost after its params history changed (counted in the change's delta).
    private func refreshCost(of node: Node) {
        let old = node.cost
        node.cost = ContentCost.of(node: node)
        if node.started { tx.costDelta += node.cost - old }
    }
}
