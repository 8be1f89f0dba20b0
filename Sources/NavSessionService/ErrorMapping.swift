import DBusKit
import NavigationCore
import NavigationRouting
import NavigationSession

/// The one place where errors become D-Bus errors (name + message).
///
/// ``SessionError`` carries its own D-Bus name and message (`errorName`, `message`); errors of the
/// layers below are wrapped into it first, so every name comes from one table (Docs/dbus-api.md,
/// "Errors"). Anything unknown becomes `org.freedesktop.DBus.Error.Failed`.
public enum ErrorMapping {
    /// The D-Bus error for `error`.
    public static func busError(for error: any Error) -> BusError {
        switch error {
        case let error as BusError: error
        case let error as SessionError: busError(for: error)
        case let error as NavigationError: busError(for: SessionError.navigation(error))
        case let error as DeepLinkError: busError(for: SessionError.deepLink(error))
        case let error as DeepLinkApplyError: busError(for: SessionError.deepLinkApply(error))
        case let error as ManifestError: busError(for: SessionError.manifest(error))
        case let error as ValidationError: BusError(.invalidArgs, String(describing: error))
        default: BusError(mapping: error)
        }
    }

    /// The D-Bus error named by `error.errorName`, with `error.message`.
    public static func busError(for error: SessionError) -> BusError {
        BusError((try? ErrorName(error.errorName)) ?? .failed, error.message)
    }

    /// `ActivateAction` named an action the application does not offer.
    static func unsupportedAction(_ name: String) -> BusError {
        BusError(.notSupported, "the application has no action '\(name)'")
    }

    /// Runs `body`, mapping any error it throws with ``busError(for:)``.
    public static func mapped<T>(_ body: () throws -> T) throws(BusError) -> T {
        do { return try body() } catch { throw busError(for: error) }
    }
}

// Handlers may throw the session's own errors anywhere (argument checks outside `perform` too);
// DBusKit maps them through these, so an input error never reaches the caller as `Failed`.
extension SessionError: BusErrorConvertible {
    public var busError: BusError { ErrorMapping.busError(for: self) }
}

extension NavigationError: BusErrorConvertible {
    public var busError: BusError { ErrorMapping.busError(for: SessionError.navigation(self)) }
}

extension DeepLinkError: BusErrorConvertible {
    public var busError: BusError { ErrorMapping.busError(for: SessionError.deepLink(self)) }
}

extension DeepLinkApplyError: BusErrorConvertible {
    public var busError: BusError { ErrorMapping.busError(for: SessionError.deepLinkApply(self)) }
}

extension ManifestError: BusErrorConvertible {
    public var busError: BusError { ErrorMapping.busError(for: SessionError.manifest(self)) }
}
