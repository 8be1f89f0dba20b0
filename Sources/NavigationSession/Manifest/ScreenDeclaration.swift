import NavigationCore

/// A screen the application can show: its name, title and declared parameters.
///
/// JSON: `{"name":"detail","title":"Detail","required":["id"],"optional":["edit"]}`; `title`,
/// `required` and `optional` may be omitted. A structure, route or command that shows the screen must
/// pass every required parameter and no undeclared one.
public struct ScreenDeclaration: Hashable, Sendable, Codable {
    /// The screen name models use (`ModelSpec.screen`).
    public var name: String
    /// A human title (the Window1 `Title` property falls back to it).
    public var title: String?
    /// Parameters that must be present.
    public var required: [String]
    /// Parameters that may be present.
    public var optional: [String]
    /// An entry condition: a change may start a model of this screen only while the window's switched root
    /// shows the state it names (Docs/guards.md, "Entry guards and redirects"); `nil`: none.
    public var requires: EntryRequirement?
    /// What a change refused by ``requires`` does instead, one change (its commands run from the active
    /// model, expanded like a batch's); `nil` or empty: nothing changes and the navigation just waits.
    public var redirect: [BatchCommand]?
    /// The appearance the screen's models have unless they override it: `backButton`,
    /// `navigationBar`, `tabBar` (booleans) and `titleDisplayMode` (`automatic`, `inline`, `large`); keys left
    /// out keep the built-in default (shown, `automatic`). `nil`: the defaults.
    public var appearance: Appearance?
    /// How ``NavigationCommand/show(screen:params:transition:)`` shows the screen: `push` (the default), `sheet`,
    /// `cover`, a declared custom kind or `browser`.
    public var style: String?
    /// The transition the screen gets when neither the command nor a rule names one.
    public var transition: String?
    /// Message handlers: message name → the commands run, in the change that sends the message,
    /// from the model of this screen that handles it (the recipient, or the nearest model up its parent chain
    /// whose screen declares a handler for the name; Docs/manifest.md, "Message handlers"). `nil`: none.
    public var handlers: [String: [NavigationCommand]]?
    /// Default parameters (React Navigation's `initialParams`, Jetpack's argument defaults): a model of this screen
    /// created without one of these keys gets its value, merged under the given ones. Each key is a declared
    /// parameter; a required one with a default may be left out. `nil`: none.
    public var initialParams: [String: String]?
    /// The parameters that identify a model of this screen (React Navigation's `getId`, Jetpack's single top by
    /// arguments): pushing the screen with the same values for these keys brings the stack's element already showing
    /// it to the top, its params replaced, instead of pushing a second one. `nil` or empty: every push is new.
    public var identity: [String]?
    /// What a screen reader hears when a model of this screen takes focus (Docs/announcements.md): a template
    /// (`"Order {id}"`) or one per locale (`{"en":"Order {id}","fr":"Commande {id}"}`). `nil`: the kind's phrase.
    public var announce: [String: String]?

    /// Declares a screen.
    public init(
        name: String, title: String? = nil, required: [String] = [], optional: [String] = [],
        requires: EntryRequirement? = nil, redirect: [BatchCommand]? = nil, appearance: Appearance? = nil,
        handlers: [String: [NavigationCommand]]? = nil
    ) {
        self.appearance = appearance
        self.handlers = handlers
        self.requires = requires
        self.redirect = redirect
        self.name = name
        self.title = title
        self.required = required
        self.optional = optional
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, title, required, optional, initialParams, identity, requires, redirect, appearance, style, transition, handlers
        case announce
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        required = try c.decodeIfPresent([String].self, forKey: .required) ?? []
        optional = try c.decodeIfPresent([String].self, forKey: .optional) ?? []
        initialParams = try c.decodeIfPresent([String: String].self, forKey: .initialParams)
        identity = try c.decodeIfPresent([String].self, forKey: .identity)
        requires = try c.decodeIfPresent(EntryRequirement.self, forKey: .requires)
        redirect = try c.decodeIfPresent([BatchCommand].self, forKey: .redirect)
        appearance = try c.decodeIfPresent(Appearance.self, forKey: .appearance)
        style = try c.decodeIfPresent(String.self, forKey: .style)
        transition = try c.decodeIfPresent(String.self, forKey: .transition)
        handlers = try c.decodeIfPresent([String: [NavigationCommand]].self, forKey: .handlers)
        if c.contains(.announce) {
            // One template for every locale (`""` key), or one per locale.
            if let text = try? c.decode(String.self, forKey: .announce) {
                announce = ["": text]
            } else if let templates = try? c.decode([String: String].self, forKey: .announce), templates[""] == nil {
                announce = templates
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .announce, in: c,
                    debugDescription: "a template, or an object of language tag → template ({\"en\":\"Order {id}\"})")
            }
        }
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(title, forKey: .title)
        if !required.isEmpty { try c.encode(required, forKey: .required) }
        if !optional.isEmpty { try c.encode(optional, forKey: .optional) }
        try c.encodeIfPresent(initialParams, forKey: .initialParams)
        try c.encodeIfPresent(identity, forKey: .identity)
        try c.encodeIfPresent(requires, forKey: .requires)
        try c.encodeIfPresent(redirect, forKey: .redirect)
        try c.encodeIfPresent(appearance, forKey: .appearance)
        try c.encodeIfPresent(style, forKey: .style)
        try c.encodeIfPresent(transition, forKey: .transition)
        try c.encodeIfPresent(handlers, forKey: .handlers)
        if let announce {
            if announce.count == 1, let text = announce[""] { try c.encode(text, forKey: .announce) } else { try c.encode(announce, forKey: .announce) }
        }
    }

    /// The first problem with `params` for this screen: a missing required key, then an undeclared key.
    ///
    /// Keys are checked in sorted order so the answer is deterministic.
    /// - Parameter ignoringMissing: skip the required-parameter check (for entry screens whose
    ///   parameters arrive when a window opens).
    func problem(with params: some Collection<String>, ignoringMissing: Bool = false) -> ParameterProblem? {
        let given = Set(params).union(initialParams?.keys ?? [:].keys)
        if !ignoringMissing, let missing = required.first(where: { !given.contains($0) }) {
            return .missing(missing)
        }
        let known = Set(required).union(optional)
        if let unknown = given.sorted().first(where: { !known.contains($0) }) { return .unknown(unknown) }
        return nil
    }
}

/// A condition on the session for entering a screen (manifest `"requires": {"state": "main"}`): the window's
/// switched root shows `state` once the change is applied.
public struct EntryRequirement: Hashable, Sendable, Codable {
    /// A state of the window's scene (a screen its switched root may show).
    public var state: String

    /// Creates a requirement.
    public init(state: String) { self.state = state }

    enum CodingKeys: String, CodingKey, CaseIterable { case state }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        state = try c.decode(String.self, forKey: .state)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }
}

/// What is wrong with a screen's parameters.
enum ParameterProblem: Hashable {
    case missing(String)
    case unknown(String)
}
