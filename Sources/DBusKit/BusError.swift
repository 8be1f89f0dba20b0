/// An error as it travels on the bus: a D-Bus error name plus a human-readable message.
///
/// Client calls throw it for error replies; handlers may throw it to reply with exactly that error. Clients
/// branch on ``name``; ``message`` is for logs. Unknown remote names are kept as they are.
///
/// ```swift
/// throw BusError(.invalidArgs, "window id 7 does not exist")
/// ```
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name, e.g. ``ErrorName/unknownMethod``.
    public var name: ErrorName
    /// The human-readable message (the error reply's first string argument, or empty).
    public var message: String

    /// Creates an error with a name and a message.
    public init(_ name: ErrorName, _ message: String = "") {
        self.name = name
        self.message = message
    }

    /// A readable form for logs and messages.
    public var description: String { message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)" }
}

/// Adopted by domain error types to choose the D-Bus error their values become in replies.
///
/// ```swift
/// enum WindowError: Error, BusErrorConvertible {
///     case noSuchWindow(UInt32)
///     var busError: BusError {
///         switch self {
///         case .noSuchWindow(let id):
///             BusError(Self.noSuchWindow, "no window \(id)")
///         }
///     }
/// }
/// extension WindowError {
///     static var noSuchWindow: ErrorName { (try? ErrorName("org.navsession.Error.NoSuchWindow")) ?? .failed }
/// }
/// ```
public protocol BusErrorConvertible: Error {
    /// The error to send to the caller.
    var busError: BusError { get }
}

extension BusError {
    /// Maps any error thrown by a handler to the error sent to the caller. This is the only such mapping.
    ///
    /// ``BusError`` is sent as-is, ``BusErrorConvertible`` supplies its own, and anything else becomes
    /// `org.freedesktop.DBus.Error.Failed` carrying the error's description.
    public init(mapping error: any Error) {
        switch error {
        case let busError as BusError:
            self = busError
        case let convertible as any BusErrorConvertible:
            self = convertible.busError
        default:
            self = BusError(.failed, String(describing: error))
        }
    }
}
