/// Turning specs into journaled nodes with fresh ids.
extension NavigationWindow {
    /// Creates the model described by `spec` and its whole subtree, detached; the caller links it.
    ///
    /// - Parameter mayPresent: whether the model will sit where it may present; a spec that carries a
    ///   presentation elsewhere throws ``NavigationError/cannotPresent(screen:)`` (unless anchored by a sourceID).
    func instantiate(_ given: ModelSpec, mayPresent: Bool) throws(NavigationError) -> Node {
        // Every new model enters here: its screen's initial params are merged under the ones it was given.
        let spec = configuration.screens?.withInitialParams(given) ?? given
        try configuration.limits.check(spec)
        try configuration.screens?.check(spec)
        // A model prepared ahead (the `prepare` command) is this one: it keeps the id it was given then.
        let id = takePrepared(for: spec) ?? takeID()
        let node = Node(id: id, screen: spec.screen, params: spec.params, title: spec.title, kind: spec.kind)
        nodes[node.id] = node
        tx.created.append(node)
        tx.undo.append(.created(node.id))
        if let tag = spec.tag { try claimTag(tag, for: node) }
        node.appearance = spec.appearance.flatMap { $0.isEmpty ? nil : $0 }

        // Pre-order creation: the presented child before container children, like the graph order.
        if let presentation = spec.presented {
            guard mayPresent || presentation.sourceID != nil else { throw .cannotPresent(screen: spec.screen) }
            let child = try instantiatePresentation(presentation)
            setSlot(node, to: child.id)
            link(child, to: node, as: .presented(presentation.style), position: -1)
        }

        switch spec.content {
        case .screen:
            break
        case .stack(let path, let hides):
            guard !path.isEmpty else { throw .emptyPath(stack: nil) }
            node.hidesTabBarWhenNotAtRoot = hides
            node.hidesTabBarAnimated = spec.hidesTabBarAnimated
            for (index, element) in path.enumerated() {
                let child = try instantiate(element.model, mayPresent: false)
                node.path.append(StackElement(model: child.id, transition: element.transition))
                link(child, to: node, as: .path(index: index), position: index)
            }
        case .tabs(let tabs, let selected):
            guard let first = tabs.first else { throw .invalidSpec("tabs \"\(spec.screen)\" has no tabs") }
            var seen: Set<String> = []
            for tab in tabs where !seen.insert(tab.id).inserted {
                throw .invalidSpec("tabs \"\(spec.screen)\" repeats tab id \"\(tab.id)\"")
            }
            let selectedID = selected ?? first.id
            guard seen.contains(selectedID) else {
                throw .invalidSpec("tabs \"\(spec.screen)\" selects unknown tab \"\(selectedID)\"")
            }
            node.selectedTab = selectedID
            node.tabPolicy = spec.tabPolicy
            // `initialRoute` goes back to the tab the container started with: kept as its one history entry.
            if spec.tabPolicy.backBehavior == .initialRoute { node.tabHistory = [selectedID] }
            for (index, tab) in tabs.enumerated() {
                let child = try instantiate(tab.model, mayPresent: false)
                node.tabs.append(Tab(id: tab.id, title: tab.title, icon: tab.icon, model: child.id))
                link(child, to: node, as: .tab(tab.id), position: index)
            }
        case .switched(let childSpec):
            let child = try instantiate(childSpec, mayPresent: true)
            node.switchedModel = child.id
            link(child, to: node, as: .switched, position: 0)
        case .alert(let content), .confirmationDialog(let content):
            var seen: Set<String> = []
            for action in content.actions where !seen.insert(action.id).inserted {
                throw .invalidSpec("\(spec.kind.tag) repeats action id \"\(action.id)\"")
            }
            guard spec.presented == nil else { throw .invalidSpec("\(spec.kind.tag) is a leaf and cannot present") }
            node.dialog = content
        case .custom(let kind, let children, let selected):
            guard !kind.isEmpty else { throw .invalidSpec("custom container \"\(spec.screen)\" has an empty kind") }
            if let selected, !children.indices.contains(selected) {
                throw .invalidSpec(
                    "custom container \"\(spec.screen)\" selects child \(selected) of \(children.count)")
            }
            node.selectedChild = selected ?? max(0, children.count - 1)
            if kind == SplitState.kindName {
                try Self.checkSplitColumns(children.map(\.kind), screen: spec.screen)
                node.columnVisibility = spec.columnVisibility ?? .automatic
            } else if spec.columnVisibility != nil {
                throw .invalidSpec("\"columnVisibility\" is for a split container, not \"\(kind)\"")
            }
            for (index, childSpec) in children.enumerated() {
                let child = try instantiate(childSpec, mayPresent: false)
                node.customChildren.append(child.id)
                link(child, to: node, as: .custom(index: index), position: index)
            }
        }
        node.cost = ContentCost.of(node: node)
        return node
    }

    /// ``instantiatePresentation(_:)`` with the transition resolved for `presenter` (``TransitionRules``).
    func instantiatePresentation(_ presentation: PresentationSpec, on presenter: Node) throws(NavigationError) -> Node {
        guard !configuration.transitions.isEmpty else { return try instantiatePresentation(presentation) }
        return try instantiatePresentation(presentation.with(transition: try resolvedTransition(of: presentation, on: presenter)))
    }

    /// The id of the next model created: a returning model's own (``returningIDs``, when it is free and was
    /// allocated before), else a fresh one. A window never gives one model's id to another.
    private func takeID() -> ModelID {
        if let returning = returningIDs.popFirst(), returning.rawValue >= 1, returning.rawValue < nextID,
            nodes[returning] == nil
        {
            return returning
        }
        defer { nextID += 1 }
        return ModelID(rawValue: nextID)
    }

    /// Validates the style/content pairing and creates the presented model.
    func instantiatePresentation(_ presentation: PresentationSpec) throws(NavigationError) -> Node {
        switch (presentation.style, presentation.model.content) {
        case (.alert, .alert), (.confirmationDialog, .confirmationDialog):
            break
        case (.alert, _):
            throw .invalidSpec("an alert presentation needs alert content")
        case (.confirmationDialog, _):
            throw .invalidSpec("a confirmationDialog presentation needs confirmationDialog content")
        case (_, .alert), (_, .confirmationDialog):
            throw .invalidSpec("alert and dialog content can only be presented as alert or confirmationDialog")
        case (.custom(let name), _):
            // `browser` is built in for its own form (the `browser` screen and a `url`); a manifest declaring a
            // `browser` kind of its own may present any model with it, as before.
            if presentation.isBuiltInBrowser {
                let url = presentation.model.params["url"] ?? ""
                if let problem = PresentationSpec.browserURLProblem(url) { throw .invalidBrowserURL(url, reason: problem) }
            } else if !configuration.customPresentationKinds.contains(name) {
                throw .unknownPresentationKind(name)
            }
        case (.sheet, _), (.fullScreenCover, _):
            break
        }
        if let transition = presentation.transition, let problem = PresentationSpec.transitionProblem(transition) {
            throw .invalidSpec(problem)
        }
        let node = try instantiate(presentation.model, mayPresent: true)
        node.transition = presentation.transition
        return node
    }
}
