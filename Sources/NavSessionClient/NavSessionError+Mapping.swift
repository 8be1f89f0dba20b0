import DBusKit

extension NavSessionError {
    /// Maps any error a bus call can end in: the one mapping from DBusKit's errors to ``NavSessionError``.
    ///
    /// - ``BusError`` (an error reply) becomes the case of its name, carrying its message
    ///   (``init(name:message:)``);
    /// - `ConnectionError` becomes ``connectionFailed(_:)``, ``timedOut(_:)`` or ``disconnected(_:)``;
    /// - DBusKit's `ValidationError` (an argument libdbus would reject, such as a string with NUL) becomes
    ///   ``invalidArgs(_:)``, as the daemon would answer;
    /// - `CancellationError` becomes ``cancelled``; a ``NavSessionError`` is kept as it is; anything else
    ///   becomes ``other(name:message:)`` named `org.freedesktop.DBus.Error.Failed`.
    public init(_ error: any Error) {
        switch error {
        case let error as NavSessionError:
            self = error
        case let error as BusError:
            self.init(name: error.name.rawValue, message: error.message)
        case let error as ConnectionError:
            switch error.code {
            case .connectFailed: self = .connectionFailed(error.message)
            case .timedOut: self = .timedOut(error.message)
            case .disconnected: self = .disconnected(error.message)
            default: self = .other(name: ErrorName.failed.rawValue, message: error.description)
            }
        case let error as ValidationError:
            self = .invalidArgs(error.description)
        case is CancellationError:
            self = .cancelled
        default:
            self = .other(name: ErrorName.failed.rawValue, message: String(describing: error))
        }
    }

    /// Whether the error says the window (or any object at its path) does not exist.
    var isUnknownObject: Bool {
        if case .unknownObject = self { return true }
        return false
    }
}

/// Runs `body`, turning whatever it throws into a ``NavSessionError``.
func mappingErrors<T>(_ body: () async throws -> T) async throws(NavSessionError) -> T {
    do {
        return try await body()
    } catch {
        throw NavSessionError(error)
    }
}
