/// A signal received from the bus.
public struct Signal: Sendable, Hashable {
    /// The sender's unique name (or `org.freedesktop.DBus` for the bus driver).
    public let sender: BusName?
    /// The emitting object.
    public let path: ObjectPath
    /// The signal's interface.
    public let interface: InterfaceName
    /// The signal's name.
    public let member: MemberName
    /// The signal's arguments.
    public let arguments: [Value]
}

/// One `signals(matching:)` stream.
struct Subscription {
    let rule: MatchRule
    let continuation: AsyncStream<Signal>.Continuation
}
