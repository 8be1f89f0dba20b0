// Back and forward (Docs/navigation-core.md, "Back and forward").

/// One route a back-like change removed from the active branch, as `goForward` creates it again: how it was
/// shown (pushed or presented in a style, with its transition) and the spec of its model (screen, params,
/// title, tag, appearance override; a presented stack as its element 0, its later elements being routes of
/// their own).
///
/// JSON (in a snapshot's `forward` array): `{"style":"push","model":{…spec…},"transition":"fade"}`, with the shown
/// screen's renderer state when it had one (`"rendererState":{"draft":"…"}`: a back and forward keeps a draft).
public struct ForwardEntry: Hashable, Sendable {
    /// Pushed, or presented as a sheet, a cover or a custom kind.
    public var style: Route.Style
    /// The model to create: a plain spec for a screen, `stacked` for a presentation hosting a stack.
    public var model: ModelSpec
    /// The renderer transition it was shown with (`nil`: the default).
    public var transition: String?
    /// A sheet's detents (empty: the default).
    public var detents: [String]
    /// The renderer state the shown screen had (a draft, a scroll position), given back to it when it is created
    /// again; `nil`: none.
    public var rendererState: RendererState?
    /// The ids the models had, in the order ``model`` creates them: they come back as themselves (same ids, so a
    /// client's reference to one stays good). Empty: fresh ids (an entry written before ids were kept).
    public var ids: [ModelID]

    /// Creates an entry.
    public init(
        style: Route.Style, model: ModelSpec, transition: String? = nil, detents: [String] = [],
        rendererState: RendererState? = nil, ids: [ModelID] = []
    ) {
        self.rendererState = rendererState
        self.ids = ids
        self.style = style
        self.model = model
        self.transition = transition
        self.detents = detents
    }

    /// The presentation style a presented entry is created with (a push has none).
    var presentationStyle: PresentationStyle? {
        switch style {
        case .push: nil
        case .sheet: .sheet(detents: detents)
        case .cover: .fullScreenCover
        case .custom(let name): .custom(name)
        }
    }

    /// The route view entry this re-creates (what `GetRoutes` showed for it).
    public var route: Route {
        let root = model.kind == .stack ? (model.firstElement ?? model) : model
        return Route(
            style: style, screen: root.screen, params: root.params, withNavigation: model.kind == .stack,
            transition: transition)
    }
}

extension PresentationStyle {
    /// An alert or a confirmation dialog.
    fileprivate var isDialog: Bool {
        switch self {
        case .alert, .confirmationDialog: true
        case .sheet, .fullScreenCover, .custom: false
        }
    }
}

extension ModelSpec {
    /// A stack spec's element 0.
    fileprivate var firstElement: ModelSpec? {
        if case .stack(let path, _) = content { return path.first?.model }
        return nil
    }
}

extension ForwardEntry: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        self.init(
            style: try c.decode(Route.Style.self, forKey: "style"), model: try c.decode(ModelSpec.self, forKey: "model"),
            transition: try c.decodeIfPresent(String.self, forKey: "transition"),
            detents: try c.decodeIfPresent([String].self, forKey: "detents") ?? [],
            rendererState: try c.decodeIfPresent(RendererState.self, forKey: "rendererState"),
            ids: try c.decodeIfPresent([ModelID].self, forKey: "ids") ?? [])
        try StrictKeys.check(decoder, allowed: ["style", "model", "transition", "detents", "rendererState", "ids"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        if !detents.isEmpty { try c.encode(detents, forKey: "detents") }
        if !ids.isEmpty { try c.encode(ids, forKey: "ids") }
        try c.encode(model, forKey: "model")
        try c.encodeIfPresent(rendererState, forKey: "rendererState")
        try c.encode(style, forKey: "style")
        try c.encodeIfPresent(transition, forKey: "transition")
    }
}

extension NavigationWindow {
    /// The most forward entries a window keeps; older ones (the far end of the list) are dropped.
    public static let maxForwardEntries = 32

    /// Whether `goForward` would re-enter a route: the forward list is not empty. O(1), read after every change.
    public var canGoForward: Bool { !isClosed && !forward.isEmpty }

    /// What a command does to the forward list.
    private enum ForwardRole {
        /// Removes routes or changes the branch: what it removes from the top joins the list, a changed branch
        /// clears it.
        case records
        /// Adds routes (push, present, routes given): the list is cleared when the change does anything.
        case clears
        /// Leaves the routes alone (content, marks, effects, messages) or manages the list itself (`goForward`).
        case keeps
    }

    /// The command's role, from its ``NavigationCommand/Intent``.
    private static func role(of command: NavigationCommand) -> ForwardRole {
        switch command {
        // An alert or dialog is not a route: presenting one keeps the list (dismissing it removes no route).
        case .present(let presentation) where presentation.style.isDialog, .presentOn(let presentation, _, _)
        where presentation.style.isDialog:
            return .keeps
        default:
            switch command.intent {
            case .opens, .rearranges: return .clears
            case .closes, .switches: return .records
            case .edits, .goesForward, .other: return .keeps
            }
        }
    }

    /// Runs one command inside the current change, keeping the forward list: see ``ForwardRole``.
    func run(_ command: NavigationCommand, from id: ModelID) throws(NavigationError) {
        switch Self.role(of: command) {
        case .keeps:
            try perform(command, from: id)
        case .records:
            try recordingForward(from: id) { () throws(NavigationError) in try perform(command, from: id) }
        case .clears:
            let before = tx.undo.count
            try perform(command, from: id)
            if tx.undo.count != before, !forward.isEmpty { setForward([]) }
        }
    }

    /// Runs `body` (a change that may remove routes from the top of the active branch): when the branch after
    /// it is the branch before it with routes removed from the top, those routes join the front of the forward
    /// list; when the branch is another one (another tab, another switched model), the list is cleared.
    /// O(length of the active branch), only for the commands and reports that go back; entries are built for
    /// the removed routes only (their models are still in the graph's table until the change commits).
    /// - Parameter origin: the model the command runs from (`nil`: a renderer report, which names its stack).
    func recordingForward(from origin: ModelID? = nil, _ body: () throws(NavigationError) -> Void) throws(NavigationError) {
        // The common back — popping the stack the active model tops, nothing presented on it — reads what it removed
        // from the change's own undo log: O(removed), not O(branch), so a pop at depth 10 000 costs what one at
        // depth 1 does. A command from another model (a pop of an outer stack from its element) reads the branch.
        if origin == nil || origin == activeModelID, let stack = activeTopStack() {
            let undoStart = tx.undo.count
            let stepStart = tx.steps.count
            try body()
            recordPops(of: stack, undoStart: undoStart, stepStart: stepStart)
            return
        }
        let before = forwardBranch()
        try body()
        let after = forwardBranch()
        let kept = after.routes.count
        guard after.base == before.base, kept <= before.routes.count,
            zip(after.routes, before.routes).allSatisfy({ $0.entry.model.id == $1.entry.model.id })
        else {
            if !forward.isEmpty { setForward([]) }
            return
        }
        guard kept < before.routes.count else { return }
        prependForward(before.routes[kept...].map { forwardEntry($0.entry, $0.route) })
    }

    /// The stack whose top element is the active model, when nothing is presented on the branch (that model
    /// presents nothing and the stack is in the window's first layer): the routes a back can remove without leaving
    /// the branch are then that stack's top elements. `nil` otherwise (the general path). O(nesting).
    private func activeTopStack() -> Node? {
        guard let active = nodes[activeModelID], active.presented == nil, case .path = active.attachment,
            let stack = parentNode(active), stack.kind == .stack, stack.path.last?.model == active.id
        else { return nil }
        var current: Node? = stack
        var remaining = nodes.count
        while let node = current, remaining > 0 {
            if case .presented = node.attachment { return nil }
            current = parentNode(node)
            remaining -= 1
        }
        return stack
    }

    /// After a back from ``activeTopStack()``: when the change only popped that stack, the dropped elements (still in
    /// the graph's table until the change commits) join the front of the list in route order; a change that did
    /// anything else on the way (another tab, a collapsed split's column) left the branch, and the list is cleared.
    private func recordPops(of stack: Node, undoStart: Int, stepStart: Int) {
        guard tx.steps.count > stepStart else { return }
        for step in tx.steps[stepStart...] {
            guard case .pop(let popped, _, _) = step, popped == stack.id else {
                if !forward.isEmpty { setForward([]) }
                return
            }
        }
        var removed: [ForwardEntry] = []
        // A later truncation dropped lower elements: they come first in route order.
        for undo in tx.undo[undoStart...].reversed() {
            guard case .pathDropped(let node, let dropped) = undo, node === stack else { continue }
            removed += dropped.compactMap { element in
                nodes[element.model].map {
                    ForwardEntry(
                        style: .push, model: forwardSpec(of: $0), transition: element.transition,
                        rendererState: $0.rendererState, ids: forwardIDs(of: $0))
                }
            }
        }
        prependForward(removed)
    }

    /// Puts `removed` (in route order) at the front of the list, within its bounds.
    private func prependForward(_ removed: [ForwardEntry]) {
        guard !removed.isEmpty else { return }
        var entries = Array((removed + forward).prefix(Self.maxForwardEntries))
        // Bounded in bytes too: a quarter of the window's content limit, the far end dropped first.
        let budget = configuration.limits.maxContentCost / 4
        var total = Self.cost(of: entries)
        while total > budget, let last = entries.popLast() { total -= Self.cost(of: [last]) }
        setForward(entries)
    }

    /// The active branch as the forward list sees it: the model the routes sit on (the first layer's deepest
    /// model, its stacks at their roots) and each route with its model.
    private func forwardBranch() -> (base: ModelID?, routes: [(entry: RouteEntry, route: Route)]) {
        let (entries, _) = routeEntries()
        let base = nodes[rootID].map { firstLayerBase(from: $0) }
        guard !entries.isEmpty, let root = nodes[rootID] else { return (base, []) }
        let routes = branch(from: root).entries
        return (base, zip(entries, routes).map { ($0, $1.route) })
    }

    /// The entry that creates a removed route again.
    private func forwardEntry(_ entry: RouteEntry, _ route: Route) -> ForwardEntry {
        let spec: ModelSpec
        let ids: [ModelID]
        if entry.push == nil, entry.model.kind == .stack, let first = entry.model.path.first.flatMap({ nodes[$0.model] }) {
            var stack = ModelSpec.stacked(forwardSpec(of: first))
            stack.tag = entry.model.tag
            stack.appearance = entry.model.appearance
            stack.hidesTabBarAnimated = entry.model.hidesTabBarAnimated
            spec = stack
            ids = [entry.model.id] + forwardIDs(of: first)
        } else {
            spec = forwardSpec(of: entry.model)
            ids = forwardIDs(of: entry.model)
        }
        var detents: [String] = []
        if case .presented(.sheet(let sheetDetents)) = entry.model.attachment { detents = sheetDetents }
        let shown = entry.push == nil && entry.model.kind == .stack
            ? entry.model.path.first.flatMap { nodes[$0.model] } : entry.model
        return ForwardEntry(
            style: route.style, model: spec, transition: route.transition, detents: detents,
            rendererState: shown?.rendererState, ids: ids)
    }

    /// The deepest model of the active branch's first layer, each stack read at its element 0.
    private func firstLayerBase(from root: Node) -> ModelID {
        var current = root
        var remaining = nodes.count
        while remaining > 0 {
            remaining -= 1
            let next = current.kind == .stack ? current.path.first?.model : current.lastContainerChild
            guard let next, next != current.id, let child = nodes[next] else { break }
            current = child
        }
        return current.id
    }

    /// The spec that creates `node` again: its content, and a container's children (each stack at its root;
    /// presentations are routes of their own and not included).
    private func forwardSpec(of node: Node) -> ModelSpec {
        var spec = ModelSpec(
            screen: node.screen, params: node.params, title: node.title, tag: node.tag, tabPolicy: node.tabPolicy,
            appearance: node.appearance)
        spec.hidesTabBarAnimated = node.hidesTabBarAnimated
        switch node.kind {
        case .screen, .alert, .confirmationDialog:
            if let dialog = node.dialog {
                spec.content = node.kind == .alert ? .alert(dialog) : .confirmationDialog(dialog)
            }
        case .stack:
            let first = node.path.first.flatMap { nodes[$0.model] }.map { forwardSpec(of: $0) } ?? .screen(node.screen)
            spec.content = .stack(path: [StackElementSpec(first)], hidesTabBarWhenNotAtRoot: node.hidesTabBarWhenNotAtRoot)
        case .tabs:
            spec.content = .tabs(
                node.tabs.compactMap { tab in
                    nodes[tab.model].map { TabSpec(id: tab.id, title: tab.title, icon: tab.icon, model: forwardSpec(of: $0)) }
                }, selected: node.selectedTab)
        case .switched:
            if let child = node.switchedModel.flatMap({ nodes[$0] }) { spec.content = .switched(forwardSpec(of: child)) }
        case .custom(let kind):
            let children = node.customChildren.compactMap { nodes[$0] }.map { forwardSpec(of: $0) }
            spec.content = .custom(kind: kind, children: children, selected: children.isEmpty ? nil : node.selectedChild)
            spec.columnVisibility = node.isSplit ? node.columnVisibility : nil
        }
        return spec
    }

    /// The ids of the models ``forwardSpec(of:)`` describes, in the order instantiating that spec creates them
    /// (a model, then its children: a stack's element 0, every tab, the switched child, the custom children).
    private func forwardIDs(of node: Node) -> [ModelID] {
        var ids = [node.id]
        switch node.kind {
        case .screen, .alert, .confirmationDialog: break
        case .stack: if let first = node.path.first.flatMap({ nodes[$0.model] }) { ids += forwardIDs(of: first) }
        case .tabs: for tab in node.tabs { if let child = nodes[tab.model] { ids += forwardIDs(of: child) } }
        case .switched: if let child = node.switchedModel.flatMap({ nodes[$0] }) { ids += forwardIDs(of: child) }
        case .custom: for child in node.customChildren.compactMap({ nodes[$0] }) { ids += forwardIDs(of: child) }
        }
        return ids
    }

    /// Replaces the forward list, journaled (undone with the change).
    ///
    /// The list is not part of ``contentCost``: going back must never be refused for the window's limits or a
    /// client's budget, and what a client popped stops counting against its share. It is bounded on its own:
    /// ``maxForwardEntries`` entries and a quarter of ``GraphLimits/maxContentCost`` in bytes.
    func setForward(_ entries: [ForwardEntry]) {
        tx.undo.append(.forward(forward))
        forward = entries
    }

    /// The size of forward entries, each counted as the spec it creates (``ContentCost``).
    static func cost(of entries: [ForwardEntry]) -> Int {
        entries.reduce(0) {
            $0 + 16 + 8 * $1.ids.count + ContentCost.of($1.model) + ($1.transition.map(ContentCost.of) ?? 0)
                + ($1.rendererState?.cost ?? 0)
        }
    }

    /// `goForward`: the first `count` forward entries are created again on top of the active branch, in
    /// order, each from the active model as it is after the one before (a push onto its stack, a presentation
    /// by its nearest presenter), as one change; they leave the list. The models come back as themselves: the ids
    /// they had (``ForwardEntry/ids``; an id is never given to another model), their tags, params and renderer
    /// state.
    func goForward(_ count: Int) throws(NavigationError) {
        guard count >= 1 else { throw .invalidCount(count) }
        guard count <= forward.count else {
            throw .nothingToGoForward(requested: count, available: forward.count)
        }
        let entries = forward.prefix(count)
        setForward(Array(forward.dropFirst(count)))
        for entry in entries {
            let from = activeModelID
            returningIDs = entry.ids[...]
            defer { returningIDs = [] }
            if let style = entry.presentationStyle {
                try perform(.present(PresentationSpec(style: style, model: entry.model, transition: entry.transition)), from: from)
            } else {
                try perform(.stackAppend([StackElementSpec(entry.model, transition: entry.transition)]), from: from)
            }
            // The screen shown again gets back what its renderer kept (a draft), as a reopened window does.
            if let state = entry.rendererState { try perform(.setRendererState(model: .id(activeModelID), state), from: activeModelID) }
        }
    }
}
