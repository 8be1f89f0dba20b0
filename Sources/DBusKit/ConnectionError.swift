/// A local failure of the connection, as opposed to an error reply from a peer (``BusError``).
///
/// ```swift
/// do { _ = try await bus.call(...) }
/// catch let error as ConnectionError where error.code == .timedOut { ... }
/// ```
public struct ConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let description: String

        /// The bus could not be reached, authenticated with, or registered with.
        public static let connectFailed = Code(description: "connect failed")
        /// The connection is closed or the bus went away.
        public static let disconnected = Code(description: "disconnected")
        /// No reply arrived before the call's timeout.
        public static let timedOut = Code(description: "timed out")
        /// libdbus ran out of memory.
        public static let outOfMemory = Code(description: "out of memory")
        /// An object is already exported at that path.
        public static let pathInUse = Code(description: "object path in use")
        /// A private dbus-daemon could not be started.
        public static let daemonFailed = Code(description: "dbus-daemon failed")
    }

    /// What went wrong.
    public let code: Code
    /// Details for logs.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// A readable form for logs and messages.
    public var description: String { message.isEmpty ? code.description : "\(code): \(message)" }
}
