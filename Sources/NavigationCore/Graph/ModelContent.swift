/// One element of a stack's path: a model and the transition the renderer should use for it.
public struct StackElement: Hashable, Sendable, Codable {
    /// The element's model.
    public var model: ModelID
    /// An optional renderer transition name (e.g. `zoom`); `nil` means the default push.
    public var transition: String?

    /// Creates an element.
    public init(model: ModelID, transition: String? = nil) {
        self.model = model
        self.transition = transition
    }
}

/// One tab of a tab container.
public struct Tab: Hashable, Sendable, Codable {
    /// Unique among the container's tabs; commands and reports select by it.
    public var id: String
    /// The tab's title.
    public var title: String
    /// An icon name the renderer understands (e.g. an SF Symbol or freedesktop icon name).
    public var icon: String?
    /// The tab's child model.
    public var model: ModelID

    /// Creates a tab.
    public init(id: String, title: String, icon: String? = nil, model: ModelID) {
        self.id = id
        self.title = title
        self.icon = icon
        self.model = model
    }
}

/// A subtree a switched container keeps while it shows something else: the screen name it is kept under (the
/// screen of its root, the model the container left) and its root's id.
///
/// JSON: `{"screen":"main","model":7}`.
public struct SavedBranch: Hashable, Sendable, Codable {
    /// The screen name the branch is kept under; switching to a model of this screen brings it back.
    public var screen: String
    /// The branch's root (the model the container showed before it left it).
    public var model: ModelID

    /// Creates a saved-branch entry.
    public init(screen: String, model: ModelID) {
        self.screen = screen
        self.model = model
    }
}

/// The kind-specific state of a model, as read from the graph.
public enum ModelContent: Hashable, Sendable {
    /// A plain screen.
    case screen
    /// A stack: its path (never empty) and whether a tab bar above hides when not at the root.
    case stack(path: [StackElement], hidesTabBarWhenNotAtRoot: Bool)
    /// Tabs in order and the selected tab id (always one of them).
    case tabs([Tab], selected: String)
    /// The switched model.
    case switched(ModelID)
    /// An alert's content.
    case alert(DialogContent)
    /// A confirmation dialog's content.
    case confirmationDialog(DialogContent)
    /// A custom container's kind name, declared children and the index of the selected child (the one the
    /// active branch follows; 0 when there are no children).
    case custom(kind: String, children: [ModelID], selected: Int)

    /// The kind this content belongs to.
    public var kind: ModelKind {
        switch self {
        case .screen: .screen
        case .stack: .stack
        case .tabs: .tabs
        case .switched: .switched
        case .alert: .alert
        case .confirmationDialog: .confirmationDialog
        case .custom(let kind, _, _): .custom(kind)
        }
    }

    /// The container's own children in order (stack path, every tab, the switched model, custom children).
    public var containerChildren: [ModelID] {
        switch self {
        case .screen, .alert, .confirmationDialog: []
        case .stack(let path, _): path.map(\.model)
        case .tabs(let tabs, _): tabs.map(\.model)
        case .switched(let model): [model]
        case .custom(_, let children, _): children
        }
    }
}
