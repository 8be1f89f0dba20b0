/// Per-window settings fixed at creation.
public struct WindowConfiguration: Hashable, Sendable {
    /// Names of custom presentation kinds the application renders (e.g. `popover`); others are rejected.
    public var customPresentationKinds: Set<String>
    /// What the graph may hold; ``GraphLimits/unlimited`` unless the owner sets limits (the session does).
    public var limits: GraphLimits
    /// The screens the application declares; `nil` accepts any screen name (free-form screens).
    public var screens: ScreenCatalog?
    /// Screen names (a scene's states) whose branch a switched container keeps when it switches away from it
    /// (`switchModel`'s default `saveState`); empty: every switch finishes what it leaves.
    public var savedStates: Set<String>
    /// Entry conditions: screen name → the state the window's switched root must show for a change to start a
    /// model of that screen (manifest `"requires": {"state": …}`, Docs/guards.md); empty: nothing is checked.
    public var entryRequirements: [String: String]
    /// Declared appearances: screen name → the appearance its models have unless they override it (manifest
    /// `screens[].appearance`); a model's resolved appearance is one lookup here. Empty: the built-in defaults.
    public var appearances: [String: Appearance]
    /// Screen default styles and transitions, and transition rules; empty by default.
    public var transitions = TransitionRules()
    /// Message handlers: screen name → message name → the commands run, in the change that
    /// sends the message, from the nearest model up the recipient's parent chain whose screen handles it
    /// (manifest `screens[].handlers`); empty: messages only go to their recipient.
    public var messageHandlers: [String: [String: [NavigationCommand]]] = [:]

    /// Creates a configuration.
    public init(
        customPresentationKinds: Set<String> = [], limits: GraphLimits = .unlimited, screens: ScreenCatalog? = nil,
        savedStates: Set<String> = [], entryRequirements: [String: String] = [:], appearances: [String: Appearance] = [:]
    ) {
        self.appearances = appearances
        self.entryRequirements = entryRequirements
        self.customPresentationKinds = customPresentationKinds
        self.limits = limits
        self.screens = screens
        self.savedStates = savedStates
    }
}
