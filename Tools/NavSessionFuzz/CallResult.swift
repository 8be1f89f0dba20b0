import DBusKit

/// What became of one call.
enum CallResult: Sendable {
    /// A method return with these values.
    case reply([Value])
    /// An error reply.
    case error(name: String, message: String)
    /// No reply within the timeout.
    case timedOut
    /// The fuzzer's own connection went down.
    case disconnected(String)
    /// DBusKit refused to send it (a fuzzer bug: it built something D-Bus cannot carry); nothing was sent.
    case rejectedLocally(String)
    /// Sent by a client that vanished; nobody waited for the reply.
    case abandoned
}
