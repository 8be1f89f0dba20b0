/// Journaled structural mutations and the presenter index they keep up to date.
///
/// Every mutation of graph structure goes through these helpers so that rollback can replay inverses
/// and the per-node presenter counts stay exact. Each helper costs O(depth).
extension NavigationWindow {
    func node(_ id: ModelID) throws(NavigationError) -> Node {
        guard let node = nodes[id] else { throw .unknownModel(id) }
        return node
    }

    /// A model that is part of the live graph right now (not detached earlier in the running batch, not in
    /// a kept branch).
    func attachedNode(_ id: ModelID) throws(NavigationError) -> Node {
        let node = try node(id)
        switch placement(of: node) {
        case .live: return node
        case .kept(let root):
            guard case .saved(let screen) = root.attachment else { throw .detachedModel(id) }
            throw .savedModel(id, container: root.parent ?? rootID, screen: screen)
        case .detached: throw .detachedModel(id)
        }
    }

    /// ``attachedNode(_:)`` that must be a stack (a report's or a command's named stack).
    func attachedStack(_ id: ModelID) throws(NavigationError) -> Node {
        let stack = try attachedNode(id)
        guard stack.kind == .stack else { throw .wrongKind(id, expected: "stack") }
        return stack
    }

    /// Where a model is: on the live graph, inside a kept branch (the outermost kept root on the way up), or
    /// cut off from the root. O(depth).
    enum Placement {
        case live
        case kept(root: Node)
        case detached
    }

    func placement(of node: Node) -> Placement {
        var current = node
        var keptRoot: Node?
        while let parentID = current.parent {
            if case .saved = current.attachment { keptRoot = current }
            guard let parent = nodes[parentID] else { return .detached }
            current = parent
        }
        guard current.id == rootID else { return .detached }
        return keptRoot.map { .kept(root: $0) } ?? .live
    }

    func isAttached(_ node: Node) -> Bool {
        if case .live = placement(of: node) { return true }
        return false
    }

    /// Whether the model is in the window's graph, live or kept (what a commit must neither start nor remove
    /// as detached).
    func isInGraph(_ node: Node) -> Bool {
        if case .detached = placement(of: node) { return false }
        return true
    }

    func parentNode(_ node: Node) -> Node? { node.parent.flatMap { nodes[$0] } }

    func canPresent(_ node: Node) -> Bool {
        switch node.attachment {
        case .root: node.id == rootID && node.parent == nil
        case .switched, .presented: node.parent != nil
        case .path, .tab, .custom, .saved: false
        }
    }

    /// Whether the subtree of `node` (itself included) holds a model that may present, and one whose slot is
    /// filled: the presenter index's two facts, kept as each parent's sets of the children that have them. O(1).
    func indexFlags(_ node: Node) -> (presenter: Bool, filledSlot: Bool) {
        let presents = canPresent(node)
        return (presents || !node.presenterChildren.isEmpty, (presents && node.presented != nil) || !node.filledSlotChildren.isEmpty)
    }

    /// Puts `child` in or out of `parent`'s two sets by its flags; whether either set changed.
    @discardableResult
    private func updateMembership(of child: Node, in parent: Node) -> Bool {
        let (presenter, slot) = indexFlags(child)
        let presenters = presenter
            ? parent.presenterChildren.insert(child.id).inserted : parent.presenterChildren.remove(child.id) != nil
        let slots = slot
            ? parent.filledSlotChildren.insert(child.id).inserted : parent.filledSlotChildren.remove(child.id) != nil
        return presenters || slots
    }

    /// After `node`'s flags may have changed: its parent's sets, then upward while an ancestor's flags change.
    /// Amortised O(1): a presentation added deep in a chain of them changes its presenter's sets and stops there,
    /// so a change costs nothing in proportion to the depth it happens at. A kept branch's root counts in no
    /// parent's sets.
    private func propagateIndex(from node: Node) {
        var current = node
        while let parent = parentNode(current) {
            if case .saved = current.attachment { return }
            let before = indexFlags(parent)
            guard updateMembership(of: current, in: parent), indexFlags(parent) != before else { return }
            current = parent
        }
    }

    /// Protection marks in the subtree of `node`, itself included. O(1).
    func marks(in node: Node) -> Int { node.descendantMarks + (node.protection == nil ? 0 : 1) }

    /// Adds `delta` marks at `node` and every ancestor above it. O(depth), only where marks are.
    func bubbleMarks(from node: Node, _ delta: Int) {
        var current: Node? = node
        while let model = current {
            model.descendantMarks += delta
            current = parentNode(model)
        }
    }

    func link(_ child: Node, to parent: Node, as attachment: Attachment, position: Int, journal: Bool = true) {
        child.parent = parent.id
        child.attachment = attachment
        child.position = position
        propagateIndex(from: child)
        let marks = marks(in: child)
        if marks != 0 { bubbleMarks(from: parent, marks) }
        if journal { tx.undo.append(.linked(child)) }
    }

    func unlink(_ child: Node, journal: Bool = true) {
        guard let parent = parentNode(child) else { return }
        let before = indexFlags(parent)
        let leftPresenters = parent.presenterChildren.remove(child.id) != nil
        let leftSlots = parent.filledSlotChildren.remove(child.id) != nil
        if leftPresenters || leftSlots, indexFlags(parent) != before { propagateIndex(from: parent) }
        let marks = marks(in: child)
        if marks != 0 { bubbleMarks(from: parent, -marks) }
        child.parent = nil
        if journal {
            tx.undo.append(.unlinked(child, parent: parent, attachment: child.attachment, position: child.position))
            tx.unlinked.append(child)
        }
    }

    /// Sets a slot and accounts for the presenter's own "filled slot" bit.
    func setSlot(_ presenter: Node, to value: ModelID?, journal: Bool = true) {
        if journal { tx.undo.append(.slot(presenter, presenter.presented)) }
        presenter.presented = value
        propagateIndex(from: presenter)
        tx.markModified(presenter.id)
    }

    /// Presents `child` (already instantiated) in `presenter`'s empty slot.
    func fillSlot(_ presenter: Node, with child: Node, style: PresentationStyle) {
        setSlot(presenter, to: child.id)
        link(child, to: presenter, as: .presented(style), position: -1)
        tx.steps.append(.present(
            presenter: presenter.id, model: child.id, style: style, nested: presentations(in: child),
            transition: child.transition))
    }

    /// The presentations inside `subtree` (below its root), bottom-up: what appears or goes with it.
    /// O(size of the subtree), which the change creates or removes anyway.
    func presentations(in subtree: Node) -> [NavigationStep.Presentation] {
        guard !subtree.filledSlotChildren.isEmpty || subtree.presented != nil else { return [] }
        var result: [NavigationStep.Presentation] = []
        preorder(from: subtree) { node in
            guard let slot = node.presented, let child = nodes[slot],
                  case .presented(let style) = child.attachment
            else { return }
            result.append(NavigationStep.Presentation(presenter: node.id, model: slot, style: style, transition: child.transition))
        }
        return result
    }

    /// Removes whatever sits in `presenter`'s slot; the removed subtree finishes on commit.
    func clearSlot(_ presenter: Node) {
        guard let occupantID = presenter.presented, let occupant = nodes[occupantID] else { return }
        tx.steps.append(.dismiss(
            presenter: presenter.id, model: occupantID, nested: presentations(in: occupant), transition: occupant.transition))
        unlink(occupant)
        setSlot(presenter, to: nil)
    }

    func appendElements(_ stack: Node, _ elements: [(Node, String?)]) {
        for (child, transition) in elements {
            let index = stack.path.count
            stack.path.append(StackElement(model: child.id, transition: transition))
            tx.undo.append(.pathAppended(stack, count: 1))
            link(child, to: stack, as: .path(index: index), position: index)
        }
        if !elements.isEmpty {
            // The transitions only when any is given: an allocation on every push otherwise.
            tx.steps.append(.push(
                stack: stack.id, models: elements.map { $0.0.id },
                transitions: elements.contains { $0.1 != nil } ? elements.map(\.1) : []))
        }
        tx.markModified(stack.id)
    }

    /// Pops back so that `keep` elements remain (keep ≥ 1).
    func truncatePath(_ stack: Node, keeping keep: Int) {
        guard keep < stack.path.count else { return }
        let dropped = Array(stack.path[keep...])
        // The set of dropped models and the transitions only when they matter (a pop usually has neither a
        // presentation above it nor a transition): each is an allocation on every pop.
        if hasPresentation(above: stack) { dismissPresentations(openedBy: Set(dropped.map(\.model)), above: stack) }
        tx.steps.append(.pop(
            stack: stack.id, models: dropped.reversed().map(\.model),
            transitions: dropped.contains { $0.transition != nil } ? dropped.reversed().map(\.transition) : []))
        for element in dropped.reversed() {
            if let child = nodes[element.model] { unlink(child) }
        }
        stack.path.removeLast(dropped.count)
        tx.undo.append(.pathDropped(stack, dropped))
        tx.markModified(stack.id)
    }

    /// Whether `stack` or a model above it holds a presentation (which ``dismissPresentations(openedBy:above:)``
    /// may have to dismiss). O(depth).
    private func hasPresentation(above stack: Node) -> Bool {
        var current: Node? = stack
        while let node = current {
            if node.presented != nil { return true }
            current = parentNode(node)
        }
        return false
    }

    /// A presentation opened by one of the `removed` elements of `stack` (its ``Node/resultTo``) goes first, as a
    /// SwiftUI sheet goes with the destination that presented it: the presenters from `stack` up are looked at.
    /// O(depth).
    private func dismissPresentations(openedBy removed: Set<ModelID>, above stack: Node) {
        var current: Node? = stack
        while let node = current {
            if let slot = node.presented, let opener = nodes[slot]?.resultTo, removed.contains(opener) { clearSlot(node) }
            current = parentNode(node)
        }
    }

    /// Replaces element 0 of a stack with a new model.
    func replaceStackRoot(_ stack: Node, with child: Node) {
        guard let old = stack.path.first else { return }
        let before = stack.path.map(\.model)
        tx.steps.append(.replacePath(stack: stack.id, from: before, to: [child.id] + before.dropFirst()))
        if let oldNode = nodes[old.model] { unlink(oldNode) }
        stack.path[0] = StackElement(model: child.id, transition: nil)
        tx.undo.append(.pathElementReplaced(stack, index: 0, old))
        link(child, to: stack, as: .path(index: 0), position: 0)
        tx.markModified(stack.id)
    }

    /// Replaces the whole path; kept elements stay alive, removed ones finish, new ones start.
    func replacePath(_ stack: Node, with elements: [(Node, String?, isNew: Bool)]) {
        let keptIDs = Set(elements.lazy.filter { !$0.isNew }.map { $0.0.id })
        let removed = Set(stack.path.lazy.map(\.model).filter { !keptIDs.contains($0) })
        if !removed.isEmpty { dismissPresentations(openedBy: removed, above: stack) }
        for element in stack.path where !keptIDs.contains(element.model) {
            if let child = nodes[element.model] { unlink(child) }
        }
        tx.undo.append(.pathReplaced(stack, stack.path))
        let before = stack.path.map(\.model)
        stack.path = elements.map { StackElement(model: $0.0.id, transition: $0.1) }
        if stack.path.map(\.model) != before {
            tx.steps.append(.replacePath(stack: stack.id, from: before, to: stack.path.map(\.model)))
        }
        for (index, (child, _, isNew)) in elements.enumerated() {
            if isNew {
                link(child, to: stack, as: .path(index: index), position: index)
            } else {
                child.attachment = .path(index: index)
                child.position = index
            }
        }
        tx.markModified(stack.id)
    }

    /// Selects `tab`; with a `history` back behaviour the tab left is remembered (each tab once, so the
    /// history never holds more entries than the container has tabs) unless `recording` is false (going back).
    func selectTab(_ tabs: Node, _ tab: String, recording: Bool = true) {
        if tab != tabs.selectedTab {
            switch tabs.tabPolicy.backBehavior {
            case .history:
                tx.undo.append(.tabHistory(tabs, tabs.tabHistory))
                tabs.tabHistory.removeAll { $0 == tab || (recording && $0 == tabs.selectedTab) }
                if recording { tabs.tabHistory.append(tabs.selectedTab) }
            case .fullHistory:
                // Every visit, repeats included; going back takes the newest off. Bounded, oldest dropped.
                tx.undo.append(.tabHistory(tabs, tabs.tabHistory))
                if recording {
                    tabs.tabHistory.append(tabs.selectedTab)
                    if tabs.tabHistory.count > TabState.maxFullHistory { tabs.tabHistory.removeFirst() }
                } else if tabs.tabHistory.last == tab {
                    tabs.tabHistory.removeLast()
                }
            case .none, .order, .firstTab, .initialRoute:
                break
            }
        }
        tx.undo.append(.selectedTab(tabs, tabs.selectedTab))
        if tab != tabs.selectedTab { tx.steps.append(.selectTab(tabs: tabs.id, tab: tab, previous: tabs.selectedTab)) }
        tabs.selectedTab = tab
        tx.markModified(tabs.id)
    }

    /// Shows `child` in `container` instead of its model: the old model is kept under its screen name when
    /// `keepOld` (replacing what was kept under that name, which finishes), else it finishes. `child` is new
    /// (instantiated, detached) or a kept branch's root that ``takeSaved(_:from:)`` took out.
    func replaceSwitched(_ container: Node, with child: Node, keepOld: Bool = false, restored: Bool = false) {
        let old = container.switchedModel.flatMap { nodes[$0] }
        if let old { unlink(old) }
        tx.undo.append(.switched(container, container.switchedModel))
        tx.steps.append(
            .switchContent(
                container: container.id, from: container.switchedModel, to: child.id, saved: keepOld && old != nil,
                restored: restored))
        container.switchedModel = child.id
        link(child, to: container, as: .switched, position: 0)
        if keepOld, let old { keep(old, in: container) }
        tx.markModified(container.id)
    }

    /// Hangs the unlinked `root` under `container` as the branch kept for its screen; a branch already kept
    /// under that name is discarded (it finishes).
    private func keep(_ root: Node, in container: Node) {
        if let existing = container.saved.firstIndex(where: { $0.screen == root.screen }) {
            discardSaved(at: existing, of: container)
        }
        hang(root, parent: container.id, attachment: .saved(root.screen), position: 0)
        setSaved(container, container.saved + [SavedBranch(screen: root.screen, model: root.id)])
        tx.keeping.append((root, suspended: true))
    }

    /// Takes the branch kept at `index` out of `container` (detached, ready to link), or nil.
    func takeSaved(_ index: Int, from container: Node) -> Node? {
        guard container.saved.indices.contains(index), let root = nodes[container.saved[index].model] else { return nil }
        var saved = container.saved
        saved.remove(at: index)
        setSaved(container, saved)
        hang(root, parent: nil, attachment: .switched, position: 0)
        tx.keeping.append((root, suspended: false))
        return root
    }

    /// Drops the branch kept at `index`: its models finish when the change commits.
    func discardSaved(at index: Int, of container: Node) {
        guard container.saved.indices.contains(index) else { return }
        var saved = container.saved
        let entry = saved.remove(at: index)
        setSaved(container, saved)
        guard let root = nodes[entry.model] else { return }
        hang(root, parent: nil, attachment: root.attachment, position: root.position)
        tx.unlinked.append(root)
    }

    private func setSaved(_ container: Node, _ saved: [SavedBranch]) {
        tx.undo.append(.savedBranches(container, container.saved))
        container.saved = saved
        tx.markModified(container.id)
    }

    /// Moves a model on or off a kept-branch slot without touching the presenter index (kept branches are
    /// outside it; linking into the live graph goes through ``link(_:to:as:position:journal:)``).
    private func hang(_ node: Node, parent: ModelID?, attachment: Attachment, position: Int) {
        tx.undo.append(.hung(node, parent: node.parent, attachment: node.attachment, position: node.position))
        node.parent = parent
        node.attachment = attachment
        node.position = position
    }
}

extension NavigationWindow {
    /// Whether the tag index holds exactly the tags of the models in the graph (tests only; O(number of models)).
    func verifyTagIndex() -> Bool {
        var expected: [String: ModelID] = [:]
        for node in nodes.values {
            guard let tag = node.tag else { continue }
            guard expected.updateValue(node.id, forKey: tag) == nil else { return false }
        }
        return expected == tags
    }

    /// Recomputes the presenter index from scratch and compares it with the maintained one (tests only;
    /// O(number of models)).
    func verifyPresenterIndex() -> Bool {
        guard let root = nodes[rootID] else { return false }
        var order: [Node] = []
        // Kept branches too: their own sets stay exact while they wait, and their roots count nowhere.
        preorder(from: root, includingSaved: true) { order.append($0) }
        guard order.count == nodes.count else { return false }
        // Children before parents: each node's sets are checked against its children's (already checked) flags.
        for node in order.reversed() {
            var presenters: Set<ModelID> = []
            var slots: Set<ModelID> = []
            for id in node.children {
                guard let child = nodes[id] else { return false }
                let flags = indexFlags(child)
                if flags.presenter { presenters.insert(id) }
                if flags.filledSlot { slots.insert(id) }
            }
            guard presenters == node.presenterChildren, slots == node.filledSlotChildren else { return false }
        }
        // Marks: each marked model counts once in every ancestor (kept branches included).
        var marks: [ModelID: Int] = [:]
        for node in order where node.protection != nil {
            var current = parentNode(node)
            while let ancestor = current {
                marks[ancestor.id, default: 0] += 1
                current = parentNode(ancestor)
            }
        }
        return order.allSatisfy { $0.descendantMarks == marks[$0.id] ?? 0 }
    }
}
