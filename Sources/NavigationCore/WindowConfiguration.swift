/// Per-window settings fixed at creation.
public struct WindowConfiguration: Hashable, Sendable {
    /// Names of custom presentation kinds the application renders (e.g. `popover`); others are rejected.
    public var customPresentationKinds: Set<String>

    /// Creates a configuration.
    public init(customPresentationKinds: Set<String> = []) {
        self.customPresentationKinds = customPresentationKinds
    }
}
