/// Loading a whole state into a live window (Window1 `SetState`), as one change.
extension NavigationWindow {
    /// Replaces the window's whole graph with the one `snapshot` describes, as one change: every current
    /// model finishes, the snapshot's models start with fresh ids (ids are never reused within a window),
    /// the version goes up by one.
    ///
    /// The snapshot is validated like a restore (it already was, when it was decoded or created), then
    /// instantiated like any other new models, so the window's limits and declared screens apply.
    ///
    /// - Throws: ``NavigationError/windowClosed``, or what instantiating the models throws; nothing changes.
    @discardableResult
    public func setState(_ snapshot: WindowSnapshot, budget: ContentBudget? = nil) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        let spec = try Self.spec(of: snapshot.root, in: snapshot)
        return try transact(cause: .setState, animated: false, budget: budget, checkingEntry: false) { () throws(NavigationError) in
            guard let oldRoot = nodes[rootID] else { throw .unknownModel(rootID) }
            // Every current model goes: its tags are free for the new graph.
            tx.undo.append(.tags(tags))
            tags = [:]
            let newRoot = try instantiate(spec, mayPresent: true)
            tx.unlinked.append(oldRoot)
            tx.undo.append(.root(rootID))
            tx.steps.append(.replaceRoot(from: rootID, to: newRoot.id))
            rootID = newRoot.id
            // The forward list: the routes it remembered belong to the graph that went.
            if !forward.isEmpty { setForward([]) }
        }
    }

    /// The spec that recreates model `id` of `snapshot` and everything below it.
    static func spec(of id: ModelID, in snapshot: WindowSnapshot) throws(NavigationError) -> ModelSpec {
        var byID: [ModelID: ModelState] = [:]
        for model in snapshot.models { byID[model.id] = model }
        // Iterative on the presentation chain and containers would be more code than this recursion is
        // worth: depth is bounded by the snapshot's validation (each model once) and the graph limits.
        func build(_ id: ModelID) throws(NavigationError) -> ModelSpec {
            guard let model = byID[id] else { throw .invalidSnapshot("model \(id) is missing") }
            let content: ContentSpec
            switch model.content {
            case .screen: content = .screen
            case .stack(let path, let hides):
                var elements: [StackElementSpec] = []
                for element in path { elements.append(StackElementSpec(try build(element.model), transition: element.transition)) }
                content = .stack(path: elements, hidesTabBarWhenNotAtRoot: hides)
            case .tabs(let tabs, let selected):
                var specs: [TabSpec] = []
                for tab in tabs { specs.append(TabSpec(id: tab.id, title: tab.title, icon: tab.icon, model: try build(tab.model))) }
                content = .tabs(specs, selected: selected)
            case .switched(let child): content = .switched(try build(child))
            case .alert(let dialog): content = .alert(dialog)
            case .confirmationDialog(let dialog): content = .confirmationDialog(dialog)
            case .custom(let kind, let children, let selected):
                var specs: [ModelSpec] = []
                for child in children { specs.append(try build(child)) }
                content = .custom(kind: kind, children: specs, selected: children.isEmpty ? nil : selected)
            }
            var presented: PresentationSpec?
            if let slot = model.presented, let child = byID[slot] {
                guard case .presented(let style) = child.attachment else {
                    throw .invalidSnapshot("model \(slot) fills a slot but is not attached as presented")
                }
                presented = PresentationSpec(style: style, model: try build(slot), transition: child.transition)
            }
            var spec = ModelSpec(
                screen: model.screen, params: model.params, title: model.title, content: content, presented: presented,
                tag: model.tag, tabPolicy: model.tabState?.policy ?? .default, appearance: model.appearanceOverride)
            spec.hidesTabBarAnimated = model.hidesTabBarAnimated
            spec.columnVisibility = model.splitState?.visibility
            return spec
        }
        return try build(id)
    }
}
