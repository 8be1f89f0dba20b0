import Logging

/// Taking snapshots and restoring windows from them. Both are O(number of models), on demand only.
extension NavigationWindow {
    /// The whole graph as a value, models in pre-order from the root.
    public func snapshot() -> WindowSnapshot {
        var models: [ModelState] = []
        models.reserveCapacity(nodes.count)
        if let root = nodes[rootID] { preorder(from: root, includingSaved: true) { models.append($0.state(declared: configuration.appearances)) } }
        var snapshot = WindowSnapshot(
            unchecked: version, nextModelID: nextID, root: rootID, models: models, isClosed: isClosed)
        snapshot.scheduled = scheduled
        snapshot.nextScheduleNumber = nextScheduleNumber
        snapshot.forward = forward
        snapshot.prepared = prepared
        snapshot.rendererState = rendererState
        return snapshot
    }

    /// Rebuilds a window equal to the one that produced `snapshot` (same ids, version and id counter).
    ///
    /// Restored models count as already started: restoring emits no lifecycle events.
    /// - Throws: ``NavigationError/invalidSnapshot(_:)`` if the snapshot does not validate (snapshots
    ///   built in memory are validated again), ``NavigationError/unknownPresentationKind(_:)`` for a
    ///   custom presentation kind the configuration does not register.
    public convenience init(
        snapshot: WindowSnapshot, configuration: WindowConfiguration = WindowConfiguration(),
        logger: Logger = Logger(label: "NavigationCore")
    ) throws(NavigationError) {
        try WindowSnapshot.validate(
            version: snapshot.version, nextModelID: snapshot.nextModelID, root: snapshot.root,
            models: snapshot.models)
        try WindowSnapshot.validate(
            scheduled: snapshot.scheduled, nextScheduleNumber: snapshot.nextScheduleNumber, models: snapshot.models)
        self.init(configuration: configuration, logger: logger)
        scheduled = snapshot.scheduled
        nextScheduleNumber = snapshot.nextScheduleNumber
        for model in snapshot.models {
            if case .presented(.custom(let name)) = model.attachment,
                !configuration.customPresentationKinds.contains(name),
                name != PresentationSpec.browserKind || model.screen != PresentationSpec.browserKind
            {
                throw .unknownPresentationKind(name)
            }
            let node = Self.makeNode(model)
            if let tag = model.tag { tags[tag] = model.id }
            if model.protection != nil { marked.insert(model.id) }
            node.cost = ContentCost.of(node: node)
            contentCost += node.cost
            nodes[model.id] = node
        }
        contentCost += snapshot.scheduled.reduce(0) { $0 + ContentCost.of($1) }
        // The forward list.
        forward = Array(snapshot.forward.prefix(Self.maxForwardEntries))
        prepared = Array(snapshot.prepared.prefix(Self.maxPrepared))
        rendererState = snapshot.rendererState.flatMap { $0.isEmpty ? nil : $0 }
        contentCost += rendererState?.cost ?? 0
        rootID = snapshot.root
        nextID = snapshot.nextModelID
        version = snapshot.version
        isClosed = snapshot.isClosed
        rebuildPresenterIndex()
    }

    private static func makeNode(_ model: ModelState) -> Node {
        let node = Node(id: model.id, screen: model.screen, params: model.params, title: model.title, kind: model.kind)
        node.parent = model.parent
        node.attachment = model.attachment
        node.presented = model.presented
        node.saved = model.saved
        node.tag = model.tag
        node.protection = model.protection
        node.appearance = model.appearanceOverride
        node.hidesTabBarAnimated = model.hidesTabBarAnimated
        node.transition = model.transition
        node.rendererState = model.rendererState.flatMap { $0.isEmpty ? nil : $0 }
        node.resultTo = model.resultTo
        node.paramsHistory = model.paramsHistory
        node.started = true
        switch model.attachment {
        case .path(let index), .custom(let index): node.position = index
        case .presented: node.position = -1
        case .root, .switched, .tab, .saved: node.position = 0
        }
        switch model.content {
        case .screen: break
        case .stack(let path, let hides):
            node.path = path
            node.hidesTabBarWhenNotAtRoot = hides
        case .tabs(let tabs, let selected):
            node.tabs = tabs
            node.selectedTab = selected
            node.tabPolicy = model.tabState?.policy ?? .default
            node.tabHistory = model.tabState?.history ?? []
        case .switched(let child): node.switchedModel = child
        case .alert(let content), .confirmationDialog(let content): node.dialog = content
        case .custom(_, let children, let selected):
            node.customChildren = children
            node.selectedChild = selected
            node.columnVisibility = model.splitState?.visibility ?? .automatic
            node.collapsed = model.splitState?.collapsed ?? false
        }
        return node
    }

    /// Recomputes every node's presenter and mark counts bottom-up (reverse pre-order).
    private func rebuildPresenterIndex() {
        guard let root = nodes[rootID] else { return }
        var order: [Node] = []
        preorder(from: root, includingSaved: true) { order.append($0) }
        for node in order {
            if case .tab(let id) = node.attachment, let parent = parentNode(node) {
                node.position = parent.tabs.firstIndex { $0.id == id } ?? 0
            }
        }
        for node in order.reversed() {
            guard let parent = parentNode(node) else { continue }
            // Marks count through kept branches too (removing their holder would touch them).
            parent.descendantMarks += marks(in: node)
            // A kept branch's root counts in no parent's presenter index (its own subtree's counts are still built).
            if case .saved = node.attachment { continue }
            let flags = indexFlags(node)
            if flags.presenter { parent.presenterChildren.insert(node.id) }
            if flags.filledSlot { parent.filledSlotChildren.insert(node.id) }
        }
    }
}
