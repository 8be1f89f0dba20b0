/// Execution of primitive commands inside the running transaction.
///
/// Errors thrown here abort the whole change; the caller rolls the journal back.
extension NavigationWindow {
    /// Carries out one command (``run(_:from:)`` wraps it to keep the forward list).
    func perform(_ command: NavigationCommand, from id: ModelID) throws(NavigationError) {
        let origin = try attachedNode(id)
        switch command {
        case .stackAppend(var elements, let singleTop):
            if let target = try splitPushTarget(from: origin) {
                // The split rule (NavigationWindow+Split.swift): the next column's path becomes the new models.
                try checkDepth(elements.count)
                var created: [(Node, String?)] = []
                for element in elements {
                    created.append((try instantiate(element.model, mayPresent: false), element.transition))
                }
                guard !created.isEmpty else { throw .invalidCount(0) }
                pushIntoNextColumn(target, created)
                return
            }
            let stack = try requireStack(from: origin)
            if singleTop, let first = elements.first, let top = stack.path.last.flatMap({ nodes[$0.model] }),
                Self.showsSameScreen(top, first.model)
            {
                try update(top, params: first.model.params, title: first.model.title, merge: false)
                elements.removeFirst()
                if elements.isEmpty { return }
            }
            // A screen with an identity already on the stack comes to the top (params replaced) instead of again.
            if let catalog = configuration.screens, elements.contains(where: { catalog.identical($0.model, in: stack.path, nodes: nodes) != nil }) {
                try appendIdentified(elements, to: stack, catalog: catalog)
                return
            }
            // Checked before anything is created, so an oversized request costs nothing.
            try checkDepth(stack.path.count + elements.count)
            let transitions = try resolvedTransitions(of: elements, on: stack)
            var created: [(Node, String?)] = []
            for (element, transition) in zip(elements, transitions) {
                created.append((try instantiate(element.model, mayPresent: false), transition))
            }
            guard !created.isEmpty else { throw .invalidCount(0) }
            appendElements(stack, created)
        case .stackDropLast(let count):
            guard count >= 1 else { throw .invalidCount(count) }
            let stack = try requireStack(from: origin)
            guard stack.path.count > 1 else { throw .alreadyAtStackRoot(stack: stack.id) }
            truncatePath(stack, keeping: max(1, stack.path.count - count))
        case .stackDropToRoot:
            let stack = try requireStack(from: origin)
            truncatePath(stack, keeping: 1)
            tx.markModified(stack.id)
        case .stackSetRoot(let spec, let clear):
            let stack = try requireStack(from: origin)
            let child = try instantiate(spec, mayPresent: false)
            if clear || stack.path.isEmpty {
                replacePath(stack, with: [(child, nil, isNew: true)])
            } else {
                replaceStackRoot(stack, with: child)
            }
        case .stackSetPath(let entries):
            let stack = try requireStack(from: origin)
            try checkDepth(entries.count)
            try setPath(stack, entries)
        case .present(let presentation):
            try present(presentation, from: origin)
        case .show(let screen, let params, let transition):
            let spec = ModelSpec.screen(screen, params: params)
            if let style = configuration.transitions.screens[screen]?.style {
                try present(PresentationSpec(style: style, model: spec, transition: transition), from: origin)
            } else {
                try run(.stackAppend([StackElementSpec(spec, transition: transition)]), from: id)
            }
        case .presentOn(let presentation, let reference, let replace):
            try present(presentation, on: try attachedNode(try resolve(reference)), replace: replace)
        case .dismiss:
            try dismiss(from: origin)
        case .dismissReturning(let result):
            try dismiss(from: origin, result: result)
        case .goBack(let result):
            try goBack(from: origin, result: result)
        case .goBackToRoot:
            goBackToRoot()
        case .goBackTo(let matcher):
            try goBackTo(matcher)
        case .pop(let count):
            try pop(count, from: origin)
        case .replace(let screen, let params, let transition):
            guard !screen.isEmpty else { throw .invalidSpec("replace needs a screen name") }
            try configuration.limits.checkName(screen, "replace's screen")
            let element = StackElementSpec(.screen(screen, params: params), transition: transition)
            try replaceTop(of: try requireStack(from: origin), with: element)
        case .popTo(let screen, let params, let merge):
            try popTo(screen, params: params, merge: merge, from: origin)
        case .dismissAll:
            dismissAll()
        case .dismissJustFromPresented:
            guard let holder = enclosingPresentation(of: origin), let presenter = parentNode(holder) else {
                throw .notInsidePresentation(id)
            }
            clearSlot(presenter)
        case .hide:
            try hide(origin)
        case .tabsSelectItem(let tab):
            guard let tabs = walkUp(from: origin, to: .tabs) else { throw .noTabs(from: id) }
            guard tabs.tabs.contains(where: { $0.id == tab }) else {
                throw .unknownTab(tabs: tabs.id, tab: tab, available: tabs.tabs.map(\.id))
            }
            selectOrReselect(tabs, tab)
        case .switchModel(let spec, let saveState, let restoreState):
            guard let container = walkUp(from: origin, to: .switched) else { throw .noSwitchedModel(from: id) }
            try switchModel(container, to: spec, saveState: saveState, restoreState: restoreState)
        case .clearSavedState(let screen):
            guard let container = walkUp(from: origin, to: .switched) else { throw .noSwitchedModel(from: id) }
            if let screen {
                try configuration.limits.checkName(screen, "clearSavedState's screen")
                if let index = container.saved.firstIndex(where: { $0.screen == screen }) {
                    discardSaved(at: index, of: container)
                }
            } else {
                while !container.saved.isEmpty { discardSaved(at: container.saved.count - 1, of: container) }
            }
        case .openWindow(let scene, let params):
            guard !scene.isEmpty else { throw .invalidEffect("openWindow needs a scene name") }
            enqueue(.openWindow(scene: scene, params: params), from: id)
        case .dismissWindow(let window):
            if let window, window.isEmpty { throw .invalidEffect("dismissWindow needs a non-empty window id") }
            enqueue(.dismissWindow(id: window), from: id)
        case .openURL(let url):
            guard Self.isAbsoluteURL(url) else { throw .invalidURL(url) }
            enqueue(.openURL(url), from: id)
        case .trigger(let name, let payload):
            guard !name.isEmpty else { throw .invalidEffect("trigger needs a name") }
            enqueue(.trigger(name: name, payload: payload), from: id)
        case .sendMessage(let message, let target):
            let recipient = try resolve(target, from: origin)
            tx.messages.append(DeliveredMessage(recipient: recipient.id, sender: id, message: message))
            if !configuration.messageHandlers.isEmpty { try handle(message, at: recipient) }
        case .sequence(let commands):
            guard !commands.isEmpty else { throw .emptyBatch }
            for command in commands { try run(command, from: id) }
        case .setParams(let model, let params, let title, let merge):
            let target = try model.map { reference throws(NavigationError) in try attachedNode(try resolve(reference)) } ?? origin
            guard params != nil || title != nil else { throw .invalidSpec("setParams needs params or a title") }
            try update(target, params: params, title: title, merge: merge)
        case .pushParams(let model, let params):
            let target = try model.map { reference throws(NavigationError) in try attachedNode(try resolve(reference)) } ?? origin
            try pushParams(params, on: target)
        case .bringToFront(let target):
            try bringToFront(target, from: origin)
        case .setRoutes(let routes, let stack):
            try setRoutes(routes, stack: stack)
        case .protect(let model, let reason, let dialog, let owner):
            try protect(model, reason: reason, dialog: dialog, owner: owner, from: origin)
        case .unprotect(let model, let owner):
            try unprotect(model, owner: owner, from: origin)
        case .setAppearance(let model, let appearance, let merge):
            try setAppearance(model, appearance, merge: merge, from: origin)
        case .setRendererState(let model, let state):
            try setRendererState(model, state)
        case .setTabBarRule(let stack, let hidden, let animated):
            try setTabBarRule(stack, hidden: hidden, animated: animated, from: origin)
        case .selectChild(let container, let child):
            try selectChild(child, of: container, from: origin)
        case .setColumnVisibility(let container, let visibility):
            setColumnVisibility(visibility, of: try split(container, from: origin))
        case .transaction(let payload):
            try carryTransaction(payload)
        case .prepare(let spec):
            try prepare(spec)
        case .moveModel:
            // Two windows change: the session carries it out, when it is alone in a batch sent to a window.
            throw .invalidSpec(
                "moveModel changes two windows: send it alone in a batch, not in a "
                    + "sequence, a handler, a schedule or beside other commands")
        case .schedule(let spec):
            try schedule(spec, from: origin)
        case .cancelScheduled(let id):
            try cancelScheduled(id)
        // Back and forward.
        case .goForward(let count):
            try goForward(count)
        }
    }

    /// `switchModel`: the branch kept under the spec's screen comes back when asked (looked up before the
    /// model left is kept, so switching to the screen shown swaps it with its kept branch), else the spec is
    /// instantiated; the model left is kept or finishes.
    private func switchModel(
        _ container: Node, to spec: ModelSpec, saveState: Bool?, restoreState: Bool?
    ) throws(NavigationError) {
        let old = container.switchedModel.flatMap { nodes[$0] }
        let keepOld = old.map { saveState ?? configuration.savedStates.contains($0.screen) } ?? false
        let restoring = (restoreState ?? true) ? container.saved.firstIndex(where: { $0.screen == spec.screen }) : nil
        if keepOld, let old {
            // The kept branches after the switch, bounded like a container's children before anything changes:
            // the one coming back leaves the list, the model left joins it unless it replaces its screen's.
            let remaining = container.saved.indices.filter { $0 != restoring }.map { container.saved[$0].screen }
            let after = remaining.count + (remaining.contains(old.screen) ? 0 : 1)
            let limit = configuration.limits.maxChildren
            guard after <= limit || after <= container.saved.count else {
                throw .limitsExceeded("switched model \(container.id) would keep \(after) branches; at most \(limit)")
            }
        }
        if let index = restoring {
            // The spec still has to be one the window accepts; its content is not used.
            let completed = configuration.screens?.withInitialParams(spec) ?? spec
            try configuration.limits.check(completed)
            try configuration.screens?.check(completed)
            guard let root = takeSaved(index, from: container) else { throw .unknownModel(container.saved[index].model) }
            replaceSwitched(container, with: root, keepOld: keepOld, restored: true)
        } else {
            replaceSwitched(container, with: try instantiate(spec, mayPresent: true), keepOld: keepOld)
        }
    }

    /// Whether `spec` shows what `top` shows for `singleTop`: a plain screen of the same name, and the same tag
    /// when the spec has one.
    private static func showsSameScreen(_ top: Node, _ spec: ModelSpec) -> Bool {
        guard top.kind == .screen, case .screen = spec.content, spec.presented == nil, top.screen == spec.screen else {
            return false
        }
        return spec.tag == nil || spec.tag == top.tag
    }

    /// Updates a live model's params and/or title in place (`setParams`, `singleTop`): validated like a new spec
    /// of the model's screen, journaled, its content cost recomputed; an `update` step when anything changed.
    func update(_ node: Node, params: [String: String]?, title: String?, merge: Bool) throws(NavigationError) {
        var newParams = node.params
        if let params {
            if merge { newParams.merge(params) { _, new in new } } else { newParams = params }
        }
        let newTitle = title ?? node.title
        guard newParams != node.params || newTitle != node.title else { return }
        let spec = ModelSpec(screen: node.screen, params: newParams, title: newTitle)
        try configuration.limits.check(spec)
        if node.kind == .screen { try configuration.screens?.check(spec) }
        tx.undo.append(.content(node, params: node.params, title: node.title, cost: node.cost))
        let oldCost = node.cost
        node.params = newParams
        node.title = newTitle
        node.cost = ContentCost.of(node: node)
        // A model created by this change is counted with its final cost when the change commits.
        if node.started { tx.costDelta += node.cost - oldCost }
        tx.steps.append(.update(model: node.id))
        tx.markModified(node.id)
    }

    private func bringToFront(_ target: BringToFrontTarget, from origin: Node) throws(NavigationError) {
        let stack: Node
        let index: Int
        switch target {
        case .screen(let screen):
            stack = try requireStack(from: origin)
            guard let found = stack.path.lastIndex(where: { nodes[$0.model]?.screen == screen }) else {
                throw .screenNotInStack(screen, stack: stack.id)
            }
            index = found
        case .model(let reference):
            var element = try attachedNode(try resolve(reference))
            while true {
                if case .path(let position) = element.attachment, let parent = parentNode(element) {
                    stack = parent
                    index = position
                    break
                }
                guard let parent = parentNode(element) else { throw .noStack(from: try resolve(reference)) }
                element = parent
            }
        }
        guard index < stack.path.count - 1 else { return }
        var path = stack.path
        let moved = path.remove(at: index)
        path.append(moved)
        replacePath(stack, with: path.compactMap { element in nodes[element.model].map { ($0, element.transition, isNew: false) } })
    }

    /// Selects `tab`; the selected tab again applies the container's reselect policy: with `popToRoot` the
    /// nearest stack of the tab's branch (the tab's model, or the first stack below it through switched
    /// models, selected tabs and custom containers' selected children) is popped to its root. Presentations of
    /// popped elements go with them; those of models that stay are kept. One rule for `tabsSelectItem`,
    /// the `selectedTab` report and deep links.
    func selectOrReselect(_ tabs: Node, _ tab: String) {
        guard tab == tabs.selectedTab else { return selectTab(tabs, tab) }
        guard tabs.tabPolicy.reselect == .popToRoot, let model = tabs.tabs.first(where: { $0.id == tab })?.model,
            var current = nodes[model]
        else { return }
        var remaining = nodes.count
        while current.kind != .stack, remaining > 0, let next = current.lastContainerChild, let child = nodes[next] {
            remaining -= 1
            current = child
        }
        if current.kind == .stack { truncatePath(current, keeping: 1) }
    }

    func walkUp(from start: Node, to kind: ModelKind) -> Node? {
        var current: Node? = start
        while let node = current {
            if node.kind == kind { return node }
            current = parentNode(node)
        }
        return nil
    }

    func requireStack(from origin: Node) throws(NavigationError) -> Node {
        guard let stack = walkUp(from: origin, to: .stack) else { throw .noStack(from: origin.id) }
        return stack
    }

    private func setPath(_ stack: Node, _ entries: [PathEntry]) throws(NavigationError) {
        guard !entries.isEmpty else { throw .emptyPath(stack: stack.id) }
        var result: [(Node, String?, isNew: Bool)] = []
        var seen: Set<ModelID> = []
        for entry in entries {
            switch entry {
            case .existing(let reference, let transition):
                let elementID = try resolve(reference)
                guard let element = nodes[elementID], element.parent == stack.id, case .path = element.attachment
                else { throw .notInStack(elementID, stack: stack.id) }
                guard seen.insert(elementID).inserted else { throw .duplicateElement(elementID) }
                result.append((element, transition, isNew: false))
            case .new(let spec):
                result.append((try instantiate(spec.model, mayPresent: false), spec.transition, isNew: true))
            }
        }
        replacePath(stack, with: result)
    }

    private func present(_ presentation: PresentationSpec, from origin: Node) throws(NavigationError) {
        let presenter: Node
        if presentation.sourceID != nil {
            presenter = origin
        } else {
            guard let nearest = nearestPresenter(origin) else { throw .noPresenter(from: origin.id) }
            presenter = nearest
        }
        if presenter.kind == .alert || presenter.kind == .confirmationDialog { throw .presenterIsLeaf(presenter.id) }
        if let occupant = presenter.presented { throw .slotOccupied(presenter: presenter.id, occupant: occupant) }
        try checkActions(of: presentation, from: presenter)
        let child = try instantiatePresentation(presentation, on: presenter)
        // The model that asked for it (a pushed screen presents through its container): its dismissal's result
        // goes there, as SwiftUI's and go_router's callers expect.
        if origin.id != presenter.id, origin.kind != .stack, origin.kind != .tabs, origin.kind != .switched {
            child.resultTo = origin.id
        }
        fillSlot(presenter, with: child, style: presentation.style)
    }

    /// `present` with `on`: exactly on `presenter`; with `replace`, its current presentation is dismissed first
    /// (a `dismiss` step, its models finish on commit) and the new one presented (a `present` step).
    ///
    /// A model that holds no presentation slot of its own — a pushed screen, a tab's or a column's root — presents as
    /// SwiftUI's destinations do: its nearest presenter hosts the presentation *on its behalf* (the presentation's
    /// opener, ``Node/resultTo``, is that model), so a result of its dismissal goes to it and the presentation goes
    /// when it is popped or otherwise removed.
    private func present(_ presentation: PresentationSpec, on target: Node, replace: Bool) throws(NavigationError) {
        if target.kind == .alert || target.kind == .confirmationDialog { throw .presenterIsLeaf(target.id) }
        let presenter: Node
        var opener: ModelID?
        if canPresent(target) {
            presenter = target
        } else {
            switch target.attachment {
            case .path, .tab, .custom:
                var host = parentNode(target)
                while let node = host, !canPresent(node) { host = parentNode(node) }
                guard let host else { throw .cannotPresentOn(target.id, screen: target.screen) }
                presenter = host
                opener = target.id
            case .root, .switched, .presented, .saved:
                throw .cannotPresentOn(target.id, screen: target.screen)
            }
        }
        if let occupantID = presenter.presented {
            guard replace else {
                throw .alreadyPresenting(
                    model: presenter.id, presented: occupantID, screen: nodes[occupantID].map(\.screen) ?? "")
            }
            clearSlot(presenter)
        }
        try checkActions(of: presentation, from: presenter)
        let child = try instantiatePresentation(presentation, on: presenter)
        child.resultTo = opener
        fillSlot(presenter, with: child, style: presentation.style)
    }

    /// A dialog whose action cannot run from where it is presented would fail only when the user chooses
    /// it; each action's commands are tried from the presenter now (in the state they will run in, since
    /// the dialog's slot is cleared first) and undone. A re-applying action is not tried: shown for a refused
    /// change, it re-applies that change instead of running its commands (Docs/guards.md, "The dialog path"),
    /// and its commands are only what it does when no change is kept (after a restart), where a failure
    /// closes the dialog alone.
    private func checkActions(of presentation: PresentationSpec, from presenter: Node) throws(NavigationError) {
        let content: DialogContent
        switch presentation.model.content {
        case .alert(let dialog), .confirmationDialog(let dialog): content = dialog
        default: return
        }
        for action in content.actions where !action.commands.isEmpty && !action.reapply {
            let point = savepoint()
            defer { rollback(to: point) }
            do throws(NavigationError) {
                for command in action.commands { try run(command, from: presenter.id) }
            } catch {
                throw .actionUnavailable(action: action.id, presenter: presenter.id, error)
            }
        }
    }

    /// What `dismiss` from a model removes: the slot holding its presentation, or the elements above a
    /// pushed one.
    enum DismissTarget {
        case slot(presenter: Node)
        case path(stack: Node, keeping: Int)
    }

    /// The one rule for `dismiss` (the command and ``abilities`` both ask it); O(depth), no allocation.
    func dismissTarget(from origin: Node) -> DismissTarget? {
        guard let start = nearestPresenter(origin) else { return nil }
        var current: Node? = start
        while let node = current, let parent = parentNode(node) {
            switch node.attachment {
            case .presented: return .slot(presenter: parent)
            case .path(let index) where index > 0: return .path(stack: parent, keeping: index)
            default: current = parent
            }
        }
        return nil
    }

    /// Carries out `dismiss`; returns the model that becomes the top (the presenter of the dismissed
    /// presentation, or the new top element of the stack), where `dismiss` with a result sends it.
    @discardableResult
    func dismiss(from origin: Node) throws(NavigationError) -> ModelID? {
        switch dismissTarget(from: origin) {
        case .slot(let presenter):
            clearSlot(presenter)
            return presenter.id
        case .path(let stack, let keeping):
            truncatePath(stack, keeping: keeping)
            return stack.path.last?.model
        case nil:
            throw .nothingToDismiss(from: origin.id)
        }
    }

    /// What a renderer may offer right now, from the active model: exactly when `goBack`, `stackDropLast(1)`
    /// and `dismiss` would succeed, decided by the rules those commands use (no dry run: this is read after
    /// every change, so it must not cost a transaction). O(depth).
    public var abilities: WindowAbilities {
        guard !isClosed, let active = nodes[activeModelID] else {
            return WindowAbilities(canGoBack: false, canPop: false, canDismiss: false)
        }
        let stack = walkUp(from: active, to: .stack)
        var canPop = (stack?.path.count ?? 0) > 1
        let dismissal = dismissTarget(from: active)
        var canDismiss = dismissal != nil
        guard protectedCount > 0 else {
            // `goBack`'s walk passes every model of the active branch, so a pop or a dismissal from the active
            // model is a back target too: the walk runs only when neither is possible.
            return WindowAbilities(canGoBack: canPop || canDismiss || backTarget() != nil, canPop: canPop, canDismiss: canDismiss)
        }
        let back = backTarget()
        var canGoBack = back != nil
        // The same rule the commit applies (Docs/guards.md): a move that would finish a marked model is
        // not offered.
        if let stack, canPop, let top = stack.path.last { canPop = !popTouchesMark([top.model], of: stack) }
        switch dismissal {
        case .slot(let presenter): canDismiss = !(presenter.presented.flatMap { nodes[$0] }.map(subtreeIsProtected) ?? false)
        case .path(let stack, let keeping): canDismiss = !popTouchesMark(stack.path[keeping...].map(\.model), of: stack)
        case nil: break
        }
        switch back {
        case .dismiss(let presenter): canGoBack = !(presenter.presented.flatMap { nodes[$0] }.map(subtreeIsProtected) ?? false)
        case .pop(let stack, let index): canGoBack = !popTouchesMark(stack.path[index...].map(\.model), of: stack)
        case .selectTab, .selectColumn, .restoreParams, nil: break
        }
        return WindowAbilities(canGoBack: canGoBack, canPop: canPop, canDismiss: canDismiss)
    }

    /// Whether popping the `removed` elements of `stack` would finish a marked model: in their subtrees, or in a
    /// presentation one of them opened (it goes with its opener, `dismissPresentations(openedBy:above:)`). The same
    /// rule the commit applies, read without a dry run. O(removed + depth); only called while some model is marked.
    private func popTouchesMark(_ removed: [ModelID], of stack: Node) -> Bool {
        if removed.contains(where: { nodes[$0].map(subtreeIsProtected) ?? false }) { return true }
        var current: Node? = stack
        while let node = current {
            if let slot = node.presented, let presented = nodes[slot], let opener = presented.resultTo,
                removed.contains(opener), subtreeIsProtected(presented)
            {
                return true
            }
            current = parentNode(node)
        }
        return false
    }

    private func hide(_ origin: Node) throws(NavigationError) {
        guard let stack = parentNode(origin), case .path(let index) = origin.attachment else {
            throw .cannotHide(origin.id)
        }
        if index > 0 {
            truncatePath(stack, keeping: index)
        } else if case .presented = stack.attachment, let presenter = parentNode(stack) {
            clearSlot(presenter)
        } else {
            throw .cannotHide(origin.id)
        }
    }

    /// The nearest ancestor-or-self sitting in a presentation slot.
    func enclosingPresentation(of start: Node) -> Node? {
        var current: Node? = start
        while let node = current {
            if case .presented = node.attachment, node.parent != nil { return node }
            current = parentNode(node)
        }
        return nil
    }

    private func resolve(_ target: MessageTarget, from origin: Node) throws(NavigationError) -> Node {
        switch target {
        case .current: return origin
        case .parent:
            guard let parent = parentNode(origin) else { throw .unknownModel(origin.id) }
            return parent
        case .presenter:
            guard let holder = enclosingPresentation(of: origin), let presenter = parentNode(holder) else {
                throw .notInsidePresentation(origin.id)
            }
            return presenter
        case .model(let reference): return try attachedNode(try resolve(reference))
        }
    }

    private func enqueue(_ effect: Effect, from source: ModelID) {
        tx.effects.append(effect)
        tx.effectSources.append(source)
    }

    /// `scheme:rest` with an RFC 3986 scheme and no whitespace; parsing beyond that is the router's job.
    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        let allowed = scheme.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
        let rest = text[text.index(after: colon)...]
        return allowed && !rest.isEmpty && !text.unicodeScalars.contains { $0.properties.isWhitespace }
    }

    func checkDepth(_ count: Int) throws(NavigationError) {
        let limit = configuration.limits.maxStackDepth
        guard count <= limit else { throw .limitsExceeded("a stack would hold \(count) elements; at most \(limit)") }
    }
}
