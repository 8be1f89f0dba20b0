import DBusKit
import NavigationCore
import NavigationRouting

/// The one place where every error of the layers below becomes a D-Bus error (name + message).
///
/// Handlers call ``busError(for:)`` on whatever they catch; DBusKit sends the result. The table is in
/// `Docs/dbus-api.md` ("Errors").
public enum ErrorMapping {
    /// The prefix of NavSession's own error names.
    public static let prefix = "org.navsession.Error."

    /// The D-Bus error for `error`; anything unknown becomes `org.freedesktop.DBus.Error.Failed`.
    public static func busError(for error: any Error) -> BusError {
        switch error {
        case let error as BusError: error
        case let error as ServiceError: busError(for: error)
        case let error as NavigationError: busError(for: error)
        case let error as DeepLinkError: busError(for: error)
        case let error as DeepLinkApplyError: busError(for: error)
        case let error as RouteDecodingError: BusError(.invalidArgs, error.description)
        case let error as ValidationError: BusError(.invalidArgs, String(describing: error))
        default: BusError(mapping: error)
        }
    }

    /// Runs `body`, mapping any error it throws with ``busError(for:)``.
    public static func mapped<T>(_ body: () throws -> T) throws(BusError) -> T {
        do { return try body() } catch { throw busError(for: error) }
    }

    static func navsession(_ name: String, _ message: String) -> BusError {
        BusError((try? ErrorName(prefix + name)) ?? .failed, message)
    }

    static func busError(for error: ServiceError) -> BusError {
        switch error {
        case .unknownScene(let scene): navsession("UnknownScene", "unknown scene '\(scene)'")
        case .unknownWindow(let window): BusError(.unknownObject, "no window \(window)")
        case .invalidBatch(let detail): navsession("InvalidBatch", detail)
        case .invalidArguments(let detail): BusError(.invalidArgs, detail)
        case .missingParameter(let screen, let parameter):
            navsession("MissingParameter", "screen '\(screen)' requires parameter '\(parameter)'")
        case .tooManyWindows(let limit): BusError(.limitsExceeded, "at most \(limit) windows may be open")
        case .unsupportedAction(let action): BusError(.notSupported, "unknown action '\(action)'")
        case .persistenceFailed(let detail): BusError(.failed, "cannot save the session: \(detail)")
        }
    }

    static func busError(for error: NavigationError) -> BusError {
        switch error {
        case .unknownModel(let id): navsession("UnknownModel", "no model \(id.rawValue) in this window")
        case .detachedModel(let id): navsession("UnknownModel", "model \(id.rawValue) was removed earlier in the batch")
        case .noStack(let from): navsession("NoStack", "no stack above model \(from.rawValue)")
        case .alreadyAtStackRoot(let stack): navsession("AlreadyAtRoot", "stack \(stack.rawValue) is at its root")
        case .emptyPath: navsession("EmptyPath", "a stack path cannot be empty")
        case .notInStack(let id, let stack):
            navsession("InvalidCommand", "model \(id.rawValue) is not an element of stack \(stack.rawValue)")
        case .duplicateElement(let id): navsession("InvalidCommand", "model \(id.rawValue) appears twice in the path")
        case .invalidCount(let count): BusError(.invalidArgs, "count must be at least 1 (got \(count))")
        case .noPresenter(let from): navsession("NoPresenter", "no model can present from model \(from.rawValue)")
        case .slotOccupied(let presenter, let occupant):
            navsession("NoPresenter", "model \(presenter.rawValue) already presents model \(occupant.rawValue)")
        case .presenterIsLeaf(let id): navsession("NoPresenter", "model \(id.rawValue) is an alert or dialog and cannot present")
        case .unknownPresentationKind(let kind):
            navsession("UnknownPresentationKind", "unknown presentation kind '\(kind)'")
        case .cannotPresent(let screen):
            navsession("InvalidCommand", "screen '\(screen)' cannot carry a presentation where it is placed")
        case .nothingToDismiss: navsession("NothingToDismiss", "nothing is presented or pushed to dismiss")
        case .notInsidePresentation(let id): navsession("NotPresented", "model \(id.rawValue) is not inside a presentation")
        case .cannotHide(let id): navsession("NothingToHide", "model \(id.rawValue) is neither presented nor pushed")
        case .noTabs(let from): navsession("NoTabs", "no tabs model above model \(from.rawValue)")
        case .unknownTab(let tabs, let tab): navsession("UnknownTab", "tabs model \(tabs.rawValue) has no tab '\(tab)'")
        case .noSwitchedModel(let from): navsession("NoSwitched", "no switched model above model \(from.rawValue)")
        case .invalidSpec(let detail): navsession("InvalidCommand", "invalid model: \(detail)")
        case .invalidURL(let url): navsession("InvalidCommand", "invalid URL '\(url)'")
        case .invalidEffect(let detail): navsession("InvalidCommand", "invalid effect: \(detail)")
        case .emptyBatch: navsession("InvalidBatch", "the batch is empty")
        case .batchCommandFailed(let index, let inner):
            { let mapped = busError(for: inner); return BusError(mapped.name, "command \(index): \(mapped.message)") }()
        case .wrongKind(let id, let expected): navsession("StaleReport", "model \(id.rawValue) is not a \(expected)")
        case .notPresented(let id): navsession("NotPresented", "model \(id.rawValue) is not presented")
        case .indexOutOfRange(let stack, let index, let count):
            navsession("StaleReport", "stack \(stack.rawValue) has \(count) elements; cannot pop to \(index)")
        case .unknownAction(let alert, let action): navsession("UnknownAction", "model \(alert.rawValue) has no action '\(action)'")
        case .windowClosed: BusError(.unknownObject, "the window is closed")
        case .invalidSnapshot(let reason): BusError(.failed, "invalid snapshot: \(reason)")
        }
    }

    static func busError(for error: DeepLinkError) -> BusError {
        switch error {
        case .urlTooLong: BusError(.limitsExceeded, error.description)
        case .malformedURL: navsession("MalformedURL", error.description)
        case .wrongScheme: navsession("WrongScheme", error.description)
        case .unknownRoute: navsession("UnknownRoute", error.description)
        case .missingParameter: navsession("MissingParameter", error.description)
        case .badParameterValue: navsession("BadParameter", error.description)
        }
    }

    static func busError(for error: DeepLinkApplyError) -> BusError {
        switch error {
        case .windowClosed: BusError(.unknownObject, error.description)
        case .noTabs: navsession("NoTabs", error.description)
        case .unknownTab: navsession("UnknownTab", error.description)
        case .noStack: navsession("NoStack", error.description)
        case .blockedByDialog: navsession("BlockedByDialog", error.description)
        case .pushWithoutNavigation: navsession("InvalidCommand", error.description)
        }
    }
}

extension ServiceError: BusErrorConvertible {
    /// The D-Bus error (``ErrorMapping``), so a handler may throw a ``ServiceError`` directly.
    public var busError: BusError { ErrorMapping.busError(for: self) }
}
