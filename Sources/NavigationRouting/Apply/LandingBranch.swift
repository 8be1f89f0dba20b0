import NavigationCore

/// Where a deep-link destination lands in a window, read from the graph before any command runs.
///
/// The walk follows ``ActiveBranch`` from the root, with the destination's tab (if any) followed in
/// the first tab container met instead of the selected tab.
///
/// - With `reset`, the walk stays on the first layer (presentations are dismissed) and descends
///   into element 0 of each stack (every stack on it is popped to its root). Presentations to
///   dismiss are the filled slots on that branch and on the branch shown now.
/// - Without `reset`, the walk crosses presentations like the route view and the destination lands
///   on the top layer; an alert or dialog there blocks it.
struct LandingBranch {
    /// The tab container whose tab the destination selects (the first one on the walk).
    var tabs: ModelState?
    /// The stacks on the landing layer, outermost first; pushes go onto the last one.
    var stacks: [ModelID] = []
    /// Models sitting in slots on the first layer, to dismiss when resetting (no duplicates).
    var presentedToDismiss: [ModelID] = []
    /// An alert or dialog on top of the active branch (only looked for without reset).
    var blocker: ModelState?

    /// Walks `window` for a destination selecting `tab`.
    ///
    /// - Throws: ``DeepLinkApplyError/unknownTab(tab:tabs:available:)`` when the first tab container
    ///   on the walk has no such tab; ``DeepLinkApplyError/noTabs(tab:)`` when there is none.
    init(window: NavigationWindow, tab: String?, reset: Bool) throws(DeepLinkApplyError) {
        var tabs: ModelState?
        var stacks: [ModelID] = []
        var presentedToDismiss: [ModelID] = []
        var blocker: ModelState?
        if reset {
            var ignoredTabs: ModelState?
            _ = try Self.walkLayer(window, from: window.rootID, stackChild: .last, tab: nil, tabs: &ignoredTabs) { _, step in
                if let presented = step.presented { presentedToDismiss.append(presented) }
            }
            _ = try Self.walkLayer(window, from: window.rootID, stackChild: .root, tab: tab, tabs: &tabs) { id, step in
                if let presented = step.presented, !presentedToDismiss.contains(presented) {
                    presentedToDismiss.append(presented)
                }
                if step.kind == .stack { stacks.append(id) }
            }
        } else {
            var layerStart: ModelID? = window.rootID
            var layers = 0
            while let start = layerStart, layers <= window.modelCount {
                layers += 1
                stacks = []
                let slot = try Self.walkLayer(window, from: start, stackChild: .last, tab: tab, tabs: &tabs) { id, step in
                    if step.kind == .stack { stacks.append(id) }
                }
                layerStart = nil
                guard let slot, let presented = window.model(slot), let style = ActiveBranch.style(of: presented)
                else { break }
                if ActiveBranch.isDialog(style) {
                    blocker = presented
                } else {
                    layerStart = slot
                }
            }
        }
        if let tab, tabs == nil { throw .noTabs(tab: tab) }
        self.tabs = tabs
        self.stacks = stacks
        self.presentedToDismiss = presentedToDismiss
        self.blocker = blocker
    }

    /// Walks one layer from `start`, visiting each model; returns the first filled slot on it.
    ///
    /// One ``NavigationWindow/branchStep(at:stackRoot:tab:)`` per model: copying each model's state
    /// (``NavigationWindow/model(_:)``) cost about 1 000 instructions per model on every deep link. Only the
    /// tab container and a blocker are copied.
    private static func walkLayer(
        _ window: NavigationWindow, from start: ModelID, stackChild: ActiveBranch.StackChild, tab: String?,
        tabs: inout ModelState?, visit: (ModelID, BranchStep) -> Void
    ) throws(DeepLinkApplyError) -> ModelID? {
        var firstSlot: ModelID?
        var current: ModelID? = start
        var remaining = window.modelCount
        // The destination's tab is followed in the first tab container only; a later one follows its selection.
        while remaining > 0, let id = current,
              let step = window.branchStep(at: id, stackRoot: stackChild == .root, tab: tabs == nil ? tab : nil)
        {
            remaining -= 1
            visit(id, step)
            if firstSlot == nil { firstSlot = step.presented }
            if step.kind == .tabs, tabs == nil, let tab, let model = window.model(id), case .tabs(let items, _) = model.content {
                guard items.contains(where: { $0.id == tab }) else {
                    throw .unknownTab(tab: tab, tabs: model.id, available: items.map(\.id))
                }
                tabs = model
            }
            current = step.child
        }
        return firstSlot
    }
}
