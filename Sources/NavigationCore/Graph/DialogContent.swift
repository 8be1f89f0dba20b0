/// The role of an alert or dialog action, as renderers style it.
public enum ActionRole: String, Hashable, Sendable, Codable {
    /// Dismisses without doing anything else; renderers place it apart.
    case cancel
    /// Does something irreversible; renderers show it in red.
    case destructive
}

/// One button of an alert or confirmation dialog.
///
/// When the user chooses it (``RendererReport/alertActionChosen(alert:action:)``), the window clears
/// the alert's slot, runs ``commands`` from the presenting model and delivers
/// ``NavigationMessage/actionChosen(_:)`` to the presenter — all in one change.
///
/// ```swift
/// DialogAction(id: "logout", title: "Log out", role: .destructive, commands: [.switchModel(login)])
/// ```
public struct DialogAction: Hashable, Sendable, Codable {
    /// Unique among the actions of one alert; reports name the action by it.
    public var id: String
    /// The button title.
    public var title: String
    /// `nil` for an ordinary action.
    public var role: ActionRole?
    /// Commands run from the presenting model when the action is chosen (may be empty).
    public var commands: [NavigationCommand]
    /// The action that re-applies a change a protection mark refused when this dialog was presented in its place
    /// (Docs/guards.md); at most one per dialog. With no refused change waiting, it runs like any other action.
    public var reapply: Bool

    /// Creates an action; `commands` run from the presenter when the user picks it.
    public init(id: String, title: String, role: ActionRole? = nil, commands: [NavigationCommand] = [], reapply: Bool = false) {
        self.id = id
        self.title = title
        self.role = role
        self.commands = commands
        self.reapply = reapply
    }

    enum CodingKeys: String, CodingKey { case id, title, role, commands, reapply }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        role = try c.decodeIfPresent(ActionRole.self, forKey: .role)
        commands = try c.decodeIfPresent([NavigationCommand].self, forKey: .commands) ?? []
        reapply = try c.decodeIfPresent(Bool.self, forKey: .reapply) ?? false
        try StrictKeys.check(decoder, allowed: ["id", "title", "role", "commands", "reapply"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(role, forKey: .role)
        if !commands.isEmpty { try c.encode(commands, forKey: .commands) }
        if reapply { try c.encode(true, forKey: .reapply) }
    }
}

/// The text and buttons of an alert or confirmation dialog.
///
/// Action ids must be unique; the window rejects duplicates with ``NavigationError/invalidSpec(_:)``.
public struct DialogContent: Hashable, Sendable, Codable {
    /// The headline (dialogs may leave it empty).
    public var title: String
    /// Optional body text.
    public var message: String?
    /// The buttons, in display order.
    public var actions: [DialogAction]

    /// Creates alert or dialog content.
    public init(title: String, message: String? = nil, actions: [DialogAction] = []) {
        self.title = title
        self.message = message
        self.actions = actions
    }

    enum CodingKeys: String, CodingKey { case title, message, actions }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? ""
        message = try c.decodeIfPresent(String.self, forKey: .message)
        actions = try c.decodeIfPresent([DialogAction].self, forKey: .actions) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encode(actions, forKey: .actions)
    }
}
