import NavigationCore

/// One entry of `Session1.ListClosedWindows` (``SessionProxy/closedWindows()``): a recently
/// closed window and its last state.
public struct ClosedWindowInfo: Decodable, Hashable, Sendable {
    /// Its id for ``SessionProxy/reopenWindow(_:)`` (the number it had, in decimal).
    public let id: String
    /// The window number it had (a reopened window gets a new one).
    public let window: UInt32
    /// The scene it was opened from.
    public let scene: String
    /// Its title when it closed.
    public let title: String
    /// The screen it showed when it closed.
    public let activeScreen: String
    /// When it closed: wall-clock milliseconds since the Unix epoch.
    public let closedAt: Int64
    /// Its graph just before it closed.
    public let snapshot: WindowSnapshot
}
