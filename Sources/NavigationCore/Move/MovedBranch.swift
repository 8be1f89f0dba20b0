/// Models taken out of one window to go into another (Session1 `MoveModel`, Docs/desktop.md "Move and merge"):
/// a model with everything under it — a tab, a stack suffix, a presented sheet with its stack — with its params,
/// titles, renderer state, marks (with their owners), kept branches and params history.
public struct MovedBranch: Hashable, Sendable {
    /// How the branch hung in the window it left, which decides where it may go.
    public enum Form: Hashable, Sendable {
        /// Elements of a stack's path from one position to its end (pushed screens), in order, with their transitions.
        case stackSuffix([StackElement])
        /// A tab of a tab container: its id, title and icon, and its child model.
        case tab(Tab)
        /// A presented model (a sheet, a cover, a custom kind — not an alert or a dialog): its style and transition.
        case presented(PresentationStyle, transition: String?)
    }

    /// The form.
    public var form: Form
    /// The branch's top models, in order: the stack elements' models, or the one tab's or presented model.
    public var roots: [ModelID]
    /// Every model of the branch, each root followed by its subtree in pre-order; a root's ``ModelState/parent`` is
    /// `nil` and its attachment ``Attachment/root`` until it is placed.
    public var models: [ModelState]
    /// The batches the branch's models scheduled (they go with their models where ids are kept).
    public var scheduled: [ScheduledBatch]
    /// The window's forward list, when the branch held the window's active model (the forward list is the active
    /// branch's); empty otherwise.
    public var forward: [ForwardEntry]

    /// The ids of the branch's models.
    public var ids: Set<ModelID> { Set(models.map(\.id)) }
}

/// Where a moved branch goes in the window that takes it (``WindowSnapshot/attaching(_:at:)``); JSON, the
/// `placement_json` of `MoveModel` and the `placement` of the `moveModel` command: `{}` (where its form goes: a stack
/// suffix on top of the active stack, a tab at the end of the tab container nearest the root, a presentation on the
/// topmost model of the active branch), `{"stack":12,"position":1}`, `{"tabs":3,"position":0,"tab":"draft",
/// "select":false}`, `{"presentOn":7}`; a new window takes `{"scene":"main"}` (default: the source's scene).
public struct MovePlacement: Hashable, Sendable {
    /// Which container a placement names.
    public enum Container: String, Hashable, Sendable, CaseIterable {
        case stack, tabs, presentOn
    }

    /// The target stack (stack suffixes), tab container (tabs) or presenter (presentations) and its kind; `nil`:
    /// automatic.
    public var container: (kind: Container, model: ModelID)? {
        get { containerKind.flatMap { kind in containerModel.map { (kind, $0) } } }
        set {
            containerKind = newValue?.kind
            containerModel = newValue?.model
        }
    }
    private var containerKind: Container?
    private var containerModel: ModelID?
    /// Where in the stack's path (1…count) or among the tabs (0…count); `nil`: the end.
    public var position: Int?
    /// A moved tab's id in its new container; `nil`: its old id, or that id with `-2`, `-3`… when taken.
    public var tab: String?
    /// Whether a moved tab becomes the selected one (default `true`, as a browser does when a tab is dropped).
    public var select: Bool
    /// A new window's scene (`MoveModel` with `to_window` 0); `nil`: the source window's.
    public var scene: String?

    /// Creates a placement.
    public init(
        container: (kind: Container, model: ModelID)? = nil, position: Int? = nil, tab: String? = nil, select: Bool = true,
        scene: String? = nil
    ) {
        self.containerKind = container?.kind
        self.containerModel = container?.model
        self.position = position
        self.tab = tab
        self.select = select
        self.scene = scene
    }

    /// The keys of its JSON.
    public static let keys = ["stack", "tabs", "presentOn", "position", "tab", "select", "scene"]
}

extension MovePlacement: Codable {
    enum CodingKeys: String, CodingKey { case stack, tabs, presentOn, position, tab, select, scene }

    /// Reads a placement: an unknown key, two containers, a number out of range, an empty or over-long name fail.
    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: Self.keys)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Numbers through the checked reader: out of range or not integers, refused naming the key.
        let numbers = try decoder.container(keyedBy: JSONKey.self)
        self.init()
        func id(_ key: CodingKeys) throws -> ModelID? {
            try numbers.decodeInteger(key.rawValue, in: 1...WindowSnapshot.maxCounter).map { ModelID(rawValue: $0) }
        }
        var named: [(Container, ModelID)] = []
        if let model = try id(.stack) { named.append((.stack, model)) }
        if let model = try id(.tabs) { named.append((.tabs, model)) }
        if let model = try id(.presentOn) { named.append((.presentOn, model)) }
        guard named.count <= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .stack, in: c, debugDescription: "a placement names one container (stack, tabs or presentOn)")
        }
        container = named.first.map { (kind: $0.0, model: $0.1) }
        position = try numbers.decodeInteger("position", in: 0...WindowSnapshot.maxCounter)
        for key in [CodingKeys.tab, .scene] {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { continue }
            guard !text.isEmpty, text.utf8.count <= 256 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "\(key.rawValue) must be 1-256 bytes")
            }
            if key == .tab { tab = text } else { scene = text }
        }
        select = try c.decodeIfPresent(Bool.self, forKey: .select) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let (kind, model) = container {
            let key: CodingKeys = switch kind {
            case .stack: .stack
            case .tabs: .tabs
            case .presentOn: .presentOn
            }
            try c.encode(model.rawValue, forKey: key)
        }
        try c.encodeIfPresent(position, forKey: .position)
        try c.encodeIfPresent(tab, forKey: .tab)
        if !select { try c.encode(false, forKey: .select) }
        try c.encodeIfPresent(scene, forKey: .scene)
    }
}
