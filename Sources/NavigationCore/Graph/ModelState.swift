/// A read-only value view of one model: its own fields plus ids of related models.
///
/// Returned by ``NavigationWindow/model(_:)`` and listed in ``WindowSnapshot/models``. Building one is
/// O(1): the stack path array is shared copy-on-write with the window.
public struct ModelState: Hashable, Sendable {
    /// The model's id.
    public var id: ModelID
    /// The parent's id; `nil` only for the window root.
    public var parent: ModelID?
    /// How the model hangs from its parent.
    public var attachment: Attachment
    /// The screen name (e.g. `detail`); containers default to their kind name.
    public var screen: String
    /// String parameters of the screen.
    public var params: [String: String]
    /// An optional title.
    public var title: String?
    /// The model in this model's presentation slot, if any.
    public var presented: ModelID?
    /// Kind-specific state.
    public var content: ModelContent
    /// A switched container's kept branches (``SavedBranch``), oldest first; empty for every other model.
    /// Their models are in the snapshot too, attached ``Attachment/saved(_:)`` to this model, but they are not
    /// among ``children``.
    public var saved: [SavedBranch]
    /// The application-chosen tag, unique in the window; `nil` when untagged.
    public var tag: String?
    /// A tab container's policy and selection history; `nil` for every other kind.
    public var tabState: TabState?
    /// The model's protection mark (Docs/guards.md); `nil` when unprotected.
    public var protection: Protection?
    /// The appearance that applies to the model (``Appearance``, every key set), resolved from the built-in
    /// defaults, the screen's declared appearance and the model's override; `nil` when it is the built-in default
    /// (``Appearance/standard``). Derived: a restore recomputes it from ``appearanceOverride``.
    public var appearance: Appearance?
    /// The model's own appearance override (partial), kept across restarts; `nil`: none.
    public var appearanceOverride: Appearance?
    /// A stack's tab-bar rule: whether hiding and showing the tab bar (``ModelContent/stack(path:hidesTabBarWhenNotAtRoot:)``)
    /// is animated; `true` for every other kind.
    public var hidesTabBarAnimated: Bool
    /// A presented model's renderer transition (the presentation's `transition`); `nil` elsewhere.
    public var transition: String?
    /// A split container's column visibility and collapsed form; `nil` for every other model.
    public var splitState: SplitState?
    /// A renderer's own state for the model; `nil` when none is stored.
    public var rendererState: RendererState?
    /// A presented model's opener, when it is not its presenter: where a result of its dismissal goes.
    public var resultTo: ModelID?
    /// The params `pushParams` replaced, oldest first (`goBack` restores the newest); empty for most models.
    public var paramsHistory: [[String: String]]

    /// Creates a model state; used by snapshot decoding and tests.
    public init(
        id: ModelID, parent: ModelID?, attachment: Attachment, screen: String, params: [String: String] = [:],
        title: String? = nil, presented: ModelID? = nil, content: ModelContent, saved: [SavedBranch] = [],
        tag: String? = nil, tabState: TabState? = nil, protection: Protection? = nil,
        appearance: Appearance? = nil, appearanceOverride: Appearance? = nil, hidesTabBarAnimated: Bool = true,
        transition: String? = nil, splitState: SplitState? = nil, rendererState: RendererState? = nil,
        resultTo: ModelID? = nil, paramsHistory: [[String: String]] = []
    ) {
        self.paramsHistory = paramsHistory
        self.rendererState = rendererState
        self.resultTo = resultTo
        self.appearance = appearance
        self.appearanceOverride = appearanceOverride
        self.hidesTabBarAnimated = hidesTabBarAnimated
        self.transition = transition
        self.splitState = splitState
        self.protection = protection
        self.tabState = tabState
        self.id = id
        self.parent = parent
        self.attachment = attachment
        self.screen = screen
        self.params = params
        self.title = title
        self.presented = presented
        self.content = content
        self.saved = saved
        self.tag = tag
    }

    /// The model's kind.
    public var kind: ModelKind { content.kind }

    /// Children in graph order: the presented model first, then the container's own children.
    public var children: [ModelID] {
        var result: [ModelID] = []
        if let presented { result.append(presented) }
        result.append(contentsOf: content.containerChildren)
        return result
    }

    /// The stack path when this is a stack, else `nil`.
    public var path: [StackElement]? {
        if case .stack(let path, _) = content { return path }
        return nil
    }

    /// The selected tab id when this is a tab container, else `nil`.
    public var selectedTab: String? {
        if case .tabs(_, let selected) = content { return selected }
        return nil
    }

    /// The switched model when this is a switched container, else `nil`.
    public var switchedModel: ModelID? {
        if case .switched(let model) = content { return model }
        return nil
    }
}
