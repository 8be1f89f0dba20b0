/// A value describing a model (and its subtree) to create; the window instantiates it with fresh ids.
///
/// Specs read fluently in the spirit of the seeds:
/// ```swift
/// let detail = ModelSpec.screen("detail", params: ["id": "42"])
/// try window.execute(.stackAppend(detail))
/// try window.execute(.present(.sheet(.stacked(detail), detents: ["medium"])))
/// ```
/// Validation happens on instantiation: an empty stack path, tabs without tabs or with duplicate ids,
/// an unknown selected tab, or a presentation placed where the model may not present throw
/// ``NavigationError``.
public struct ModelSpec: Hashable, Sendable {
    /// The screen name; containers default to their kind name.
    public var screen: String
    /// String parameters of the screen.
    public var params: [String: String]
    /// An optional title.
    public var title: String?
    /// Kind-specific content, including child specs for containers.
    public var content: ContentSpec
    /// An application-chosen tag, unique in the window (`"tag":"inbox"`); commands address the model by
    /// `ModelReference.tag`.
    public var tag: String?
    /// A tab container's policy (reselect, back behaviour); ignored for other kinds.
    public var tabPolicy: TabPolicy
    /// The model's appearance override (partial, over its screen's declared appearance); `nil`: none.
    public var appearance: Appearance?
    /// A stack's tab-bar rule: whether hiding and showing the tab bar is animated (default `true`); ignored for
    /// other kinds.
    public var hidesTabBarAnimated: Bool = true
    /// A split container's first column visibility (`nil`: `automatic`); only for `custom` of kind `split`.
    public var columnVisibility: ColumnVisibility?
    // Boxed because a struct cannot contain itself directly.
    private var presentedBox: Box<PresentationSpec>?

    /// Creates a spec from its parts; prefer the static factories.
    public init(
        screen: String, params: [String: String] = [:], title: String? = nil, content: ContentSpec = .screen,
        presented: PresentationSpec? = nil, tag: String? = nil, tabPolicy: TabPolicy = .default,
        appearance: Appearance? = nil
    ) {
        self.appearance = appearance
        self.tag = tag
        self.tabPolicy = tabPolicy
        self.screen = screen
        self.params = params
        self.title = title
        self.content = content
        self.presentedBox = presented.map(Box.value)
    }

    /// A presentation created together with the model (only where the model may present).
    public var presented: PresentationSpec? {
        get { presentedBox?.value }
        set { presentedBox = newValue.map(Box.value) }
    }

    /// The kind the instantiated model will have.
    public var kind: ModelKind {
        switch content {
        case .screen: .screen
        case .stack: .stack
        case .tabs: .tabs
        case .switched: .switched
        case .alert: .alert
        case .confirmationDialog: .confirmationDialog
        case .custom(let kind, _, _): .custom(kind)
        }
    }

    /// A plain screen.
    public static func screen(
        _ name: String, params: [String: String] = [:], title: String? = nil, tag: String? = nil
    ) -> ModelSpec {
        ModelSpec(screen: name, params: params, title: title, tag: tag)
    }

    /// This spec with an application-chosen tag.
    public func tagged(_ tag: String) -> ModelSpec {
        var copy = self
        copy.tag = tag
        return copy
    }

    /// This spec with an appearance override (`ModelSpec.screen("receipt").appearing(Appearance(backButton: false))`).
    public func appearing(_ appearance: Appearance) -> ModelSpec {
        var copy = self
        copy.appearance = appearance
        return copy
    }

    /// A stack whose root element is `root` (the "stacked" wrapper of the seeds).
    public static func stacked(
        _ root: ModelSpec, screen: String = "stack", hidesTabBarWhenNotAtRoot: Bool = false
    ) -> ModelSpec {
        .stack([root], screen: screen, hidesTabBarWhenNotAtRoot: hidesTabBarWhenNotAtRoot)
    }

    /// A stack with a whole initial path; an empty path fails on instantiation with ``NavigationError/emptyPath(stack:)``.
    public static func stack(
        _ path: [ModelSpec], screen: String = "stack", hidesTabBarWhenNotAtRoot: Bool = false
    ) -> ModelSpec {
        ModelSpec(
            screen: screen,
            content: .stack(
                path: path.map { StackElementSpec($0) }, hidesTabBarWhenNotAtRoot: hidesTabBarWhenNotAtRoot))
    }

    /// A tab container; `selected` defaults to the first tab.
    public static func tabs(
        _ tabs: [TabSpec], selected: String? = nil, screen: String = "tabs", policy: TabPolicy = .default
    ) -> ModelSpec {
        ModelSpec(screen: screen, content: .tabs(tabs, selected: selected), tabPolicy: policy)
    }

    /// A switched container showing `model`.
    public static func switched(_ model: ModelSpec, screen: String = "switched") -> ModelSpec {
        ModelSpec(screen: screen, content: .switched(model))
    }

    /// A custom container of the application-defined `kind` with declared children; `selected` is the index of
    /// the child the active branch follows (`nil`: the last child).
    public static func custom(
        _ kind: String, children: [ModelSpec], selected: Int? = nil, screen: String? = nil
    ) -> ModelSpec {
        ModelSpec(screen: screen ?? kind, content: .custom(kind: kind, children: children, selected: selected))
    }

    /// This spec with a presentation created along with it.
    public func presenting(_ presentation: PresentationSpec) -> ModelSpec {
        var copy = self
        copy.presented = presentation
        return copy
    }
}

/// Kind-specific content of a ``ModelSpec``.
public indirect enum ContentSpec: Hashable, Sendable {
    /// A plain screen.
    case screen
    /// A stack; the path must not be empty.
    case stack(path: [StackElementSpec], hidesTabBarWhenNotAtRoot: Bool)
    /// Tabs in order; `selected` defaults to the first tab.
    case tabs([TabSpec], selected: String?)
    /// A switched container and its model.
    case switched(ModelSpec)
    /// Alert content (use ``PresentationSpec/alert(_:)``).
    case alert(DialogContent)
    /// Confirmation dialog content (use ``PresentationSpec/confirmationDialog(_:sourceID:)``).
    case confirmationDialog(DialogContent)
    /// A custom container with declared children; `selected` is the index of the child the active branch
    /// follows (`nil`: the last one).
    case custom(kind: String, children: [ModelSpec], selected: Int? = nil)
}

/// A stack element to create: a model spec and an optional transition name.
///
/// In JSON it is the model spec object with an extra optional `"transition"` key.
public struct StackElementSpec: Hashable, Sendable {
    /// The element's model.
    public var model: ModelSpec
    /// The renderer transition for this element (`nil` = default push).
    public var transition: String?

    /// Creates an element spec.
    public init(_ model: ModelSpec, transition: String? = nil) {
        self.model = model
        self.transition = transition
    }
}

/// A tab to create.
public struct TabSpec: Hashable, Sendable, Codable {
    /// Unique among the container's tabs.
    public var id: String
    /// The title.
    public var title: String
    /// An icon name.
    public var icon: String?
    /// The tab's child.
    public var model: ModelSpec

    /// Creates a tab spec.
    public init(id: String, title: String, icon: String? = nil, model: ModelSpec) {
        self.id = id
        self.title = title
        self.icon = icon
        self.model = model
    }

    enum CodingKeys: String, CodingKey { case id, title, icon, model }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        icon = try c.decodeIfPresent(String.self, forKey: .icon)
        model = try c.decode(ModelSpec.self, forKey: .model)
        try StrictKeys.check(decoder, allowed: ["id", "title", "icon", "model"])
    }
}

/// One entry of a new stack path for `stackSetPath`: keep an existing element or create a new one.
public enum PathEntry: Hashable, Sendable {
    /// An element already in the target stack, by id or tag (kept alive, possibly moved; its transition replaced).
    case existing(ModelReference, transition: String? = nil)
    /// A new element instantiated from a spec.
    case new(StackElementSpec)

    /// A new element from a model spec.
    public static func spec(_ model: ModelSpec, transition: String? = nil) -> PathEntry {
        .new(StackElementSpec(model, transition: transition))
    }
}

/// Boxes a value so a struct can (indirectly) contain itself.
enum Box<Value: Hashable & Sendable>: Hashable, Sendable {
    indirect case value(Value)

    var value: Value {
        switch self {
        case .value(let value): value
        }
    }
}
