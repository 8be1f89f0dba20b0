import NavigationCore

/// A kind of window the application can open: its root structure, named states, and instance policy.
///
/// JSON:
/// ```json
/// {"name": "main", "title": "Demo", "default": true, "instances": "single",
///  "states": {"login": {"kind": "stack", "path": [{"screen": "login"}]}, "main": {"kind": "tabs", …}},
///  "initialState": "login", "deepLinkState": "main"}
/// ```
/// Give either `root` (a NavigationCore model spec) or `initialState` (the root is then a switched model
/// showing that state). `states` name whole structures that `switchModel` builds when its model is a
/// plain screen spec named like a state. `deepLinkState`: deep links into this scene need the window's
/// switched root to show that state; otherwise the link waits (see `Docs/manifest.md`).
/// `capabilities` overrides the manifest-wide renderer capabilities for this scene's windows.
/// `savedStates` names the states whose branch the switched container keeps when it switches away (saved
/// branches: `switchModel`'s default `saveState`; switching back brings the branch back with its ids).
public struct SceneDeclaration: Hashable, Sendable, Codable {
    /// Whether several windows of the scene may be open at once.
    public enum Instances: String, Hashable, Sendable, Codable {
        /// At most one window; opening it again returns the open one.
        case single
        /// Any number of windows.
        case multiple
    }

    /// The scene name (`OpenWindow`'s `scene` argument).
    public var name: String
    /// A human title.
    public var title: String?
    /// Whether this is the scene opened when the session starts with no window.
    public var isDefault: Bool
    /// Singleton or multi-instance.
    public var instances: Instances
    /// The root structure, unless ``initialState`` is given.
    public var root: ModelSpec?
    /// Named structures for the window's switched model.
    public var states: [String: ModelSpec]
    /// The state shown by a new window (its root is then a switched model).
    public var initialState: String?
    /// The state deep links into this scene need.
    public var deepLinkState: String?
    /// Renderer capabilities for this scene's windows (`nil`: the manifest's).
    public var capabilities: RendererCapabilities?
    /// States kept (suspended) when the window's switched container leaves them, in declaration order.
    public var savedStates: [String]
    /// Who may change this scene's windows when they open (``WindowPolicy``; `nil`: anyone). Session1
    /// `SetWindowPolicy` changes a window's own.
    public var policy: WindowPolicy?
    /// How the scene's windows show a stack in panes by width (``PanesDeclaration``; Docs/panes.md); `nil`: one pane.
    public var panes: PanesDeclaration?

    /// Declares a scene.
    public init(
        name: String, title: String? = nil, isDefault: Bool = false, instances: Instances = .single,
        root: ModelSpec? = nil, states: [String: ModelSpec] = [:], initialState: String? = nil,
        deepLinkState: String? = nil, capabilities: RendererCapabilities? = nil, savedStates: [String] = [],
        policy: WindowPolicy? = nil
    ) {
        self.name = name
        self.title = title
        self.isDefault = isDefault
        self.instances = instances
        self.root = root
        self.states = states
        self.initialState = initialState
        self.deepLinkState = deepLinkState
        self.capabilities = capabilities
        self.savedStates = savedStates
        self.policy = policy
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, title, isDefault = "default", instances, root, states, initialState, deepLinkState, capabilities
        case savedStates, policy, panes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        isDefault = try c.decodeIfPresent(Bool.self, forKey: .isDefault) ?? false
        instances = try c.decodeIfPresent(Instances.self, forKey: .instances) ?? .single
        root = try c.decodeIfPresent(ModelSpec.self, forKey: .root)
        states = try c.decodeIfPresent([String: ModelSpec].self, forKey: .states) ?? [:]
        initialState = try c.decodeIfPresent(String.self, forKey: .initialState)
        deepLinkState = try c.decodeIfPresent(String.self, forKey: .deepLinkState)
        capabilities = try c.decodeIfPresent(RendererCapabilities.self, forKey: .capabilities)
        savedStates = try c.decodeIfPresent([String].self, forKey: .savedStates) ?? []
        if c.contains(.policy) {
            // The same rules as Session1 `SetWindowPolicy`, without the principals that name one connection.
            let text = String(decoding: try JSONOutput.encode(try c.decode(PolicyDocument.self, forKey: .policy)), as: UTF8.self)
            do throws(SessionError) {
                policy = try WindowPolicy.parse(json: text, caller: nil, inManifest: true)
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .policy, in: c, debugDescription: "scene '\(name)': \(error.message)")
            }
        }
        panes = try c.decodeIfPresent(PanesDeclaration.self, forKey: .panes)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(title, forKey: .title)
        if isDefault { try c.encode(true, forKey: .isDefault) }
        try c.encode(instances, forKey: .instances)
        try c.encodeIfPresent(root, forKey: .root)
        if !states.isEmpty { try c.encode(states, forKey: .states) }
        try c.encodeIfPresent(initialState, forKey: .initialState)
        try c.encodeIfPresent(deepLinkState, forKey: .deepLinkState)
        try c.encodeIfPresent(capabilities, forKey: .capabilities)
        if !savedStates.isEmpty { try c.encode(savedStates, forKey: .savedStates) }
        try c.encodeIfPresent(policy, forKey: .policy)
        try c.encodeIfPresent(panes, forKey: .panes)
    }

    /// The structure of state `name`, labelled with the state name so the session can tell which state
    /// a switched model shows; `nil` when the scene declares no such state.
    ///
    /// A container state gets the state name as its `screen`; a plain-screen state already has it
    /// (the manifest validator requires that).
    public func state(_ name: String) -> ModelSpec? {
        guard var spec = states[name] else { return nil }
        spec.screen = name
        return spec
    }

    /// The root structure of a new window (before parameters are merged), or `nil` if the scene names
    /// an initial state it does not declare (the validator rejects such manifests).
    public var rootStructure: ModelSpec? {
        if let root { return root }
        guard let initialState, let state = state(initialState) else { return nil }
        return .switched(state)
    }
}

/// A scene's `policy` as written (any keys, so an unknown one is reported by ``WindowPolicy/parse(json:caller:inManifest:)``).
private struct PolicyDocument: Codable {
    var lists: [String: [String]]
    init(from decoder: any Decoder) throws { lists = try [String: [String]](from: decoder) }
    func encode(to encoder: any Encoder) throws { try lists.encode(to: encoder) }
}
