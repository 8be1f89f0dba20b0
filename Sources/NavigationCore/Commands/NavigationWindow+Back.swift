import FoundationEssentials

/// Going back: `goBack`, `goBackToRoot`, `goBackTo`, `dismissAll` and dismissal with a result.
///
/// Everything here walks the **active branch** the way the route view (`GetRoutes`) does: from the root,
/// through the selected tab, the switched model, the last stack element and a custom container's selected
/// child (a collapsed split's columns up to the focused one count as one stack: NavigationWindow+Split.swift); at the end of a layer, into the first filled slot met on that layer (an alert or dialog ends the
/// walk). Each stack element after element 0 is a *push* route, each presented model a *presentation*
/// route. The walks cost O(depth of the branch), except ``routeEntries()`` (`goBackTo`), which lists
/// every route.
extension NavigationWindow {
    /// What `goBack` removes: the one rule both the command and ``abilities`` (`CanGoBack`) use.
    enum BackTarget {
        /// The presentation in `presenter`'s slot (a presentation route, or an alert or dialog on top).
        case dismiss(presenter: Node)
        /// The push at `index` of `stack` (the stack keeps `index` elements).
        case pop(stack: Node, index: Int)
        /// At a tab's root: the tab the container's back behaviour goes to.
        case selectTab(tabs: Node, tab: String, fromHistory: Bool)
        /// At the focused column's root of a collapsed split: the column before it (the columns are one stack).
        case selectColumn(split: Node, index: Int)
        /// The active model's params before its last `pushParams`.
        case restoreParams(Node)
    }

    /// The top of the active branch as `goBack` removes it, or `nil` when `goBack` would change nothing.
    /// O(depth): it keeps only the last candidate of the walk.
    func backTarget() -> BackTarget? {
        // One read of `nodes` for the walk (each read of a class's stored property is an exclusivity check).
        let nodes = self.nodes
        // Params pushed on the active model come back first (React Navigation's `pushParams`).
        if let active = nodes[activeModelID], !active.paramsHistory.isEmpty { return .restoreParams(active) }
        guard var current = nodes[rootID] else { return nil }
        var target: BackTarget?
        var slotPresenter: Node?
        var remaining = nodes.count
        while remaining > 0 {
            remaining -= 1
            if slotPresenter == nil, current.presented != nil { slotPresenter = current }
            switch current.kind {
            case .stack where current.path.count > 1: target = .pop(stack: current, index: current.path.count - 1)
            case .tabs: if let back = tabBackTarget(current) { target = back }
            case .custom where current.collapsed && current.selectedChild > 0 && current.isSplit:
                target = .selectColumn(split: current, index: current.selectedChild - 1)
            default: break
            }
            if let next = current.lastContainerChild, next != current.id, let child = nodes[next] {
                current = child
                continue
            }
            guard let presenter = slotPresenter, let slot = presenter.presented, let presented = nodes[slot]
            else { break }
            if presented.kind == .alert || presented.kind == .confirmationDialog {
                return .dismiss(presenter: presenter)
            }
            target = .dismiss(presenter: presenter)
            slotPresenter = nil
            current = presented
        }
        return target
    }

    /// The tab `goBack` selects at the root of `tabs`' selected tab, by its back behaviour, or `nil`.
    func tabBackTarget(_ tabs: Node) -> BackTarget? {
        let selected = tabs.selectedTab
        switch tabs.tabPolicy.backBehavior {
        case .none:
            return nil
        case .history, .fullHistory:
            guard let previous = tabs.tabHistory.last, previous != selected else { return nil }
            return .selectTab(tabs: tabs, tab: previous, fromHistory: true)
        case .initialRoute:
            guard let initial = tabs.tabHistory.first, initial != selected else { return nil }
            return .selectTab(tabs: tabs, tab: initial, fromHistory: false)
        case .order:
            guard let index = tabs.tabs.firstIndex(where: { $0.id == selected }), index > 0 else { return nil }
            return .selectTab(tabs: tabs, tab: tabs.tabs[index - 1].id, fromHistory: false)
        case .firstTab:
            guard let first = tabs.tabs.first, first.id != selected else { return nil }
            return .selectTab(tabs: tabs, tab: first.id, fromHistory: false)
        }
    }

    /// Carries out `goBack`; a `result` goes to the model that becomes the top: the presenter of a dismissed
    /// presentation, the new top element of a popped stack, the newly selected tab's model.
    func goBack(from origin: Node, result: JSONValue?) throws(NavigationError) {
        let message = try result.map { value throws(NavigationError) in try resultMessage(value) }
        guard let target = backTarget() else { throw .nothingToGoBack(from: origin.id) }
        let recipient: ModelID?
        switch target {
        case .dismiss(let presenter):
            let opener = resultRecipient(presentedBy: presenter)
            clearSlot(presenter)
            recipient = opener
        case .pop(let stack, let index):
            truncatePath(stack, keeping: index)
            recipient = stack.path.last?.model
        case .selectTab(let tabs, let tab, let fromHistory):
            selectTab(tabs, tab, recording: !fromHistory)
            recipient = tabs.tabs.first { $0.id == tab }?.model
        case .selectColumn(let split, let index):
            select(index, in: split)
            recipient = split.selectedCustomChild
        case .restoreParams(let node):
            try popParams(of: node)
            recipient = node.id
        }
        deliver(message, to: recipient, from: origin)
    }

    /// `dismiss` with a result: the dismissal (the rule of `dismiss`) and a `result` message to the presenter,
    /// or to the element that becomes the top of a popped stack, in the same change.
    func dismiss(from origin: Node, result: JSONValue) throws(NavigationError) {
        let message = try resultMessage(result)
        let opener = dismissTarget(from: origin).flatMap { target -> ModelID? in
            if case .slot(let presenter) = target { return resultRecipient(presentedBy: presenter) }
            return nil
        }
        let recipient = try dismiss(from: origin)
        deliver(message, to: opener ?? recipient, from: origin)
    }

    /// Where a result of dismissing what `presenter` presents goes: the model that opened it while it stays in the
    /// window after the dismissal (not inside what is dismissed), else the presenter.
    func resultRecipient(presentedBy presenter: Node) -> ModelID {
        guard let slot = presenter.presented, let opener = nodes[slot]?.resultTo, let node = nodes[opener],
            isAttached(node), !isInside(node, slot)
        else { return presenter.id }
        return opener
    }

    /// Whether `node` is `ancestor` or sits below it. O(depth).
    private func isInside(_ node: Node, _ ancestor: ModelID) -> Bool {
        var current: Node? = node
        while let model = current {
            if model.id == ancestor { return true }
            current = parentNode(model)
        }
        return false
    }

    /// Sends a `result` message from `origin` to `recipient`, the model that became the top; nothing when
    /// there is no result or no such model.
    private func deliver(_ message: NavigationMessage?, to recipient: ModelID?, from origin: Node) {
        guard let message, let recipient else { return }
        tx.messages.append(DeliveredMessage(recipient: recipient, sender: origin.id, message: message))
    }

    /// The `result` message (its payload the result's JSON text), checked against ``GraphLimits/maxTextBytes``
    /// before anything is removed.
    private func resultMessage(_ result: JSONValue) throws(NavigationError) -> NavigationMessage {
        let text = Self.resultText(result)
        try configuration.limits.checkText(text, "a result")
        return .result(text)
    }

    /// A result's JSON text (``JSONOutput``'s bytes).
    static func resultText(_ result: JSONValue) -> String {
        JSONOutput.string(result, fallback: "null")
    }

    /// The models of the active branch's first layer, from the root, descending into each stack's last
    /// element (`lastElement`) or its element 0. O(depth).
    private func baseLayer(lastElement: Bool) -> [Node] {
        var result: [Node] = []
        var current = nodes[rootID]
        var remaining = nodes.count
        while let node = current, remaining > 0 {
            remaining -= 1
            result.append(node)
            let next = node.kind == .stack && !lastElement ? node.path.first?.model : node.lastContainerChild
            current = next.flatMap { $0 == node.id ? nil : nodes[$0] }
        }
        return result
    }

    /// Every presentation on the active branch dismissed, the base stacks kept: each filled slot of the first
    /// layer is cleared, from the root down. Nothing presented: no change.
    func dismissAll() {
        for node in baseLayer(lastElement: true) where node.presented != nil { clearSlot(node) }
    }

    /// Every presentation dismissed and every stack of the first layer popped to its root, as one change: the
    /// dismissals first (top-down once the session shapes the steps), then the pops.
    func goBackToRoot() {
        dismissAll()
        var current = nodes[rootID]
        var remaining = nodes.count
        while let node = current, remaining > 0 {
            remaining -= 1
            if node.presented != nil { clearSlot(node) }
            if node.kind == .stack { truncatePath(node, keeping: 1) }
            if node.collapsed, node.selectedChild > 0, node.isSplit { backToFirstColumn(node) }
            let next = node.kind == .stack ? node.path.first?.model : node.lastContainerChild
            current = next.flatMap { $0 == node.id ? nil : nodes[$0] }
        }
    }

    /// One route of the active branch (in `GetRoutes` order) and how it is removed.
    struct RouteEntry {
        /// The route's model: a pushed element, or the presented model.
        var model: Node
        /// The stack and index of a push; `nil` for a presentation.
        var push: (stack: Node, index: Int)?
        /// The presenter of a presentation.
        var presenter: Node?
        /// The root of column `index` of a collapsed split (removing it focuses the column before).
        var column: (split: Node, index: Int)?
    }

    /// Every route of the active branch in `GetRoutes` order, and the presenter of an alert or dialog on
    /// top. O(length of the branch, routes included).
    func routeEntries() -> (routes: [RouteEntry], dialogPresenter: Node?) {
        var routes: [RouteEntry] = []
        guard var current = nodes[rootID] else { return (routes, nil) }
        var slotPresenter: Node?
        var remaining = nodes.count
        while remaining > 0 {
            remaining -= 1
            if slotPresenter == nil, current.presented != nil { slotPresenter = current }
            if current.kind == .stack {
                for (index, element) in current.path.enumerated().dropFirst() {
                    guard let model = nodes[element.model] else { continue }
                    routes.append(RouteEntry(model: model, push: (current, index)))
                }
            }
            if current.collapsed, current.selectedChild > 0, current.isSplit {
                routes += collapsedColumnEntries(current)
            }
            if let next = current.lastContainerChild, next != current.id, let child = nodes[next] {
                current = child
                continue
            }
            guard let presenter = slotPresenter, let slot = presenter.presented, let presented = nodes[slot]
            else { break }
            if presented.kind == .alert || presented.kind == .confirmationDialog { return (routes, presenter) }
            routes.append(RouteEntry(model: presented, presenter: presenter))
            slotPresenter = nil
            current = presented
        }
        return (routes, nil)
    }

    /// Whether a route shows what `matcher` looks for (index matchers are resolved by position).
    private func matches(_ entry: RouteEntry, _ matcher: RouteMatcher) -> Bool {
        // A presented stack's route shows its element 0.
        let shown = entry.push == nil && entry.model.kind == .stack
            ? entry.model.path.first.flatMap { nodes[$0.model] } : nil
        switch matcher {
        case .screen(let name, let params):
            let model = shown ?? entry.model
            return model.screen == name && (params?.matches(model.params) ?? true)
        case .model(.id(let id)): return entry.model.id == id || shown?.id == id
        case .model(.tag), .tag, .index: return false
        }
    }

    /// `goBackTo`: back to the nearest route matching `matcher`, counting from the top, across layers; a match on
    /// top (or an index equal to the top route's) changes nothing, as FlowStacks' `goBackTo`. A screen or model
    /// matcher also matches the base of the branch (the model shown once every route is removed), which is then
    /// `goBackToRoot`.
    func goBackTo(_ selector: RouteMatcher) throws(NavigationError) {
        // Matching costs O(routes × params): the params looked for are bounded like a screen's.
        if case .screen(_, .equal(let params)?) = selector, params.count > configuration.limits.maxParams {
            throw .limitsExceeded("goBackTo's params hold \(params.count) pairs; at most \(configuration.limits.maxParams)")
        }
        if case .screen(_, .containing(let params)?) = selector, params.count > configuration.limits.maxParams {
            throw .limitsExceeded("goBackTo's paramsContaining holds \(params.count) pairs; at most \(configuration.limits.maxParams)")
        }
        // A tag names a model: resolved once (an unknown tag is `unknownTag`), then matched by id.
        let matcher: RouteMatcher
        switch selector {
        case .tag(let tag): matcher = .model(.id(try resolve(.tag(tag))))
        case .model(let reference): matcher = .model(.id(try resolve(reference)))
        case .screen, .index: matcher = selector
        }
        let (routes, dialogPresenter) = routeEntries()
        var target: Int?
        switch matcher {
        case .index(let index):
            guard index >= 0, index < routes.count else {
                throw .routeNotFound(selector.description + " (the route view has \(routes.count) routes)")
            }
            target = index
        case .screen, .model, .tag:
            target = routes.indices.last { matches(routes[$0], matcher) }
            if target == nil {
                guard let base = baseLayer(lastElement: false).last, baseMatches(base, matcher) else {
                    throw .routeNotFound(selector.description)
                }
                goBackToRoot()
                return
            }
        }
        guard let keep = target else { return }
        removeRoutes(after: keep, of: routes, dialogPresenter: dialogPresenter)
    }

    private func baseMatches(_ base: Node, _ matcher: RouteMatcher) -> Bool {
        switch matcher {
        case .screen(let name, let params): base.screen == name && (params?.matches(base.params) ?? true)
        case .model(.id(let id)): base.id == id
        case .model(.tag), .tag, .index: false
        }
    }

    /// Removes every route after `keep`: the first presentation after it is dismissed (with every layer
    /// above), then each stack's pushes after it are popped, outer stacks first.
    private func removeRoutes(after keep: Int, of routes: [RouteEntry], dialogPresenter: Node?) {
        let later = routes[(keep + 1)...]
        let firstPresentation = later.firstIndex { $0.presenter != nil }
        if let firstPresentation, let presenter = routes[firstPresentation].presenter {
            clearSlot(presenter)
        } else if let dialogPresenter {
            clearSlot(dialogPresenter)
        }
        // A collapsed split's column root after `keep`: the column before the first such root is focused.
        if let column = later[..<(firstPresentation ?? routes.endIndex)].lazy.compactMap(\.column).first {
            select(column.index - 1, in: column.split)
        }
        var popped: Set<ModelID> = []
        for entry in later[..<(firstPresentation ?? routes.endIndex)] {
            guard let (stack, index) = entry.push, popped.insert(stack.id).inserted, isAttached(stack) else { continue }
            truncatePath(stack, keeping: index)
        }
    }
}
