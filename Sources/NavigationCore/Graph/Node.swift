/// The mutable storage of one model inside a window.
///
/// A class so that container fields (notably a long stack path) mutate in place without copy-on-write
/// copies; only the owning ``NavigationWindow`` touches it.
///
/// Its stored properties skip the run-time exclusivity check (`@exclusivity(unchecked)`): a change reads them
/// a few hundred times (every walk of the active branch), and each check is a call into the runtime's access
/// set (≈ 70 instructions). What makes the check redundant: a node is reached only through its window, whose
/// methods run one at a time in the window's isolation domain; every access is a read, an assignment or an
/// in-place mutation by a standard-library method, and no property is passed `inout` to code that could reach
/// the same node again (nothing in NavigationCore writes `&node.…`). Static exclusivity checking still applies.
final class Node {
    let id: ModelID
    @exclusivity(unchecked) var screen: String
    @exclusivity(unchecked) var params: [String: String]
    @exclusivity(unchecked) var title: String?
    /// The application-chosen tag, unique in the window (indexed by ``NavigationWindow/tags``).
    @exclusivity(unchecked) var tag: String?
    @exclusivity(unchecked) var kind: ModelKind

    /// `nil` when detached (and for the root).
    @exclusivity(unchecked) var parent: ModelID?
    @exclusivity(unchecked) var attachment: Attachment = .root
    /// Order key among the parent's children: -1 for the presented child, else the container index.
    @exclusivity(unchecked) var position: Int = 0
    @exclusivity(unchecked) var presented: ModelID?

    // Container state; only the fields of `kind` are meaningful.
    @exclusivity(unchecked) var path: [StackElement] = []
    @exclusivity(unchecked) var hidesTabBarWhenNotAtRoot = false
    /// Whether the tab bar hides and shows animated under ``hidesTabBarWhenNotAtRoot`` (a stack's tab-bar rule).
    @exclusivity(unchecked) var hidesTabBarAnimated = true
    @exclusivity(unchecked) var tabs: [Tab] = []
    @exclusivity(unchecked) var selectedTab = ""
    /// A tab container's policy (``TabPolicy``) and, with `history` back behaviour, its selection history.
    @exclusivity(unchecked) var tabPolicy = TabPolicy.default
    @exclusivity(unchecked) var tabHistory: [String] = []
    @exclusivity(unchecked) var switchedModel: ModelID?
    /// A switched container's kept branches, oldest first; each root hangs here with a `.saved` attachment
    /// and is not among ``children`` (not in the presenter index, not on any walk of the live graph).
    @exclusivity(unchecked) var saved: [SavedBranch] = []
    @exclusivity(unchecked) var customChildren: [ModelID] = []
    /// The index of the custom container's selected child (the active branch follows it).
    @exclusivity(unchecked) var selectedChild = 0
    /// A split container's column visibility and whether the renderer shows it collapsed (one stack).
    @exclusivity(unchecked) var columnVisibility = ColumnVisibility.automatic
    @exclusivity(unchecked) var collapsed = false

    /// Whether this is a split container (a custom container of the built-in kind `split`).
    var isSplit: Bool {
        if case .custom(let name) = kind { return name == SplitState.kindName }
        return false
    }
    @exclusivity(unchecked) var dialog: DialogContent?
    /// The model's protection mark (``Protection``), counted in ``NavigationWindow/protectedCount``.
    @exclusivity(unchecked) var protection: Protection?
    /// The model's appearance override (``Appearance``, partial); `nil`: the screen's declared appearance.
    @exclusivity(unchecked) var appearance: Appearance?
    /// A presented model's renderer transition, set when it is created (never changed afterwards, so it needs
    /// no undo step).
    @exclusivity(unchecked) var transition: String?
    /// A renderer's own state for the model; counted in ``cost``, gone with the model.
    @exclusivity(unchecked) var rendererState: RendererState?
    /// A presented model's opener when it is not its presenter (a pushed screen that asked for the presentation):
    /// the model a result of its dismissal goes to while it is still in the window.
    @exclusivity(unchecked) var resultTo: ModelID?
    /// The params `pushParams` replaced, oldest first: `goBack` restores the newest before anything else goes back.
    @exclusivity(unchecked) var paramsHistory: [[String: String]] = []

    // Presenter index: the children whose subtree (self included) holds a model that may present / a presenter
    // with a filled slot. They let `down(M)` descend straight to the right model instead of scanning the subtree.
    /// Protection marks over strict descendants (kept branches included): whether removing the subtree would
    /// touch a mark is O(1).
    @exclusivity(unchecked) var descendantMarks = 0
    @exclusivity(unchecked) var presenterChildren: Set<ModelID> = []
    @exclusivity(unchecked) var filledSlotChildren: Set<ModelID> = []

    /// Set when the model's `started` lifecycle event was emitted.
    @exclusivity(unchecked) var started = false
    /// The model's own content cost (``ContentCost``), set at creation and recomputed by `setParams`.
    @exclusivity(unchecked) var cost = 0

    init(id: ModelID, screen: String, params: [String: String], title: String?, kind: ModelKind) {
        self.id = id
        self.screen = screen
        self.params = params
        self.title = title
        self.kind = kind
    }

    /// Container children in order (without the presented child).
    var containerChildren: [ModelID] {
        switch kind {
        case .screen, .alert, .confirmationDialog: []
        case .stack: path.map(\.model)
        case .tabs: tabs.map(\.model)
        case .switched: switchedModel.map { [$0] } ?? []
        case .custom: customChildren
        }
    }

    /// All children in graph order: presented first, then container children.
    var children: [ModelID] {
        var result: [ModelID] = []
        if let presented { result.append(presented) }
        result.append(contentsOf: containerChildren)
        return result
    }

    /// The last container child, used to find the active model without copying a long path.
    var lastContainerChild: ModelID? {
        switch kind {
        case .screen, .alert, .confirmationDialog: nil
        case .stack: path.last?.model
        case .tabs: tabs.first { $0.id == selectedTab }?.model
        case .switched: switchedModel
        case .custom: selectedCustomChild
        }
    }

    /// The custom container's selected child (`nil` without children).
    var selectedCustomChild: ModelID? {
        customChildren.indices.contains(selectedChild) ? customChildren[selectedChild] : customChildren.last
    }

    var content: ModelContent {
        switch kind {
        case .screen: .screen
        case .stack: .stack(path: path, hidesTabBarWhenNotAtRoot: hidesTabBarWhenNotAtRoot)
        case .tabs: .tabs(tabs, selected: selectedTab)
        case .switched: .switched(switchedModel ?? id)
        case .alert: .alert(dialog ?? DialogContent(title: ""))
        case .confirmationDialog: .confirmationDialog(dialog ?? DialogContent(title: ""))
        case .custom(let name): .custom(kind: name, children: customChildren, selected: selectedChild)
        }
    }

    var state: ModelState {
        ModelState(
            id: id, parent: parent, attachment: attachment, screen: screen, params: params, title: title,
            presented: presented, content: content, saved: saved, tag: tag,
            tabState: kind == .tabs ? TabState(policy: tabPolicy, history: tabHistory) : nil, protection: protection,
            appearanceOverride: appearance, hidesTabBarAnimated: hidesTabBarAnimated, transition: transition,
            splitState: isSplit ? SplitState(visibility: columnVisibility, collapsed: collapsed) : nil,
            rendererState: rendererState, resultTo: resultTo, paramsHistory: paramsHistory)
    }

    /// The state with the appearance that applies, resolved against the screens' declared appearances: written
    /// only when it is not the built-in default (O(1): one dictionary lookup).
    func state(declared appearances: [String: Appearance]) -> ModelState {
        var state = self.state
        guard appearance != nil || !appearances.isEmpty else { return state }
        let resolved = (appearance ?? Appearance()).resolved(over: appearances[screen])
        if resolved != .standard { state.appearance = resolved }
        return state
    }
}
