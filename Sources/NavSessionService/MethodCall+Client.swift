import DBusKit

extension MethodCall {
    /// The caller's unique bus name, which the session charges with what the call creates (its shares of
    /// the session's limits); `nil` on a peer-to-peer connection, which has no sender.
    var client: String? { sender?.rawValue }
}
