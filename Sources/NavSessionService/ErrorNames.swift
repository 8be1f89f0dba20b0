import NavigationCore
import NavigationRouting
import NavigationSession

// The D-Bus error names of the session's and the engine's typed errors: mapped here, in the service, once; the
// layers below speak of errors by case, never by bus name. `NavSessionInterface.ErrorName` lists every name the
// contract (dbus/*.xml) declares, and `ErrorNameDocumentationTests` checks that each name produced is documented.

extension NavigationError {
    /// A distinct `org.navsession.Error.*` name for every case (the table is in `Docs/manifest.md`).
    ///
    /// A failed batch carries the failing command's own name, so a client branches on the real cause
    /// (`UnknownTab`, `NoStack`, …) whether it sent one command or many; the message names the command.
    public var errorName: String {
        let suffix: String
        switch self {
        case .batchCommandFailed(_, let inner): return inner.errorName
        case .actionUnavailable(_, _, let inner): return inner.errorName
        case .routeFailed(_, let inner): return inner.errorName
        case .limitsExceeded: return "org.freedesktop.DBus.Error.LimitsExceeded"
        case .notPermitted: return "org.freedesktop.DBus.Error.AccessDenied"
        case .unknownModel: suffix = "UnknownModel"
        case .detachedModel, .savedModel: suffix = "DetachedModel"
        case .noStack: suffix = "NoStack"
        case .alreadyAtStackRoot: suffix = "AlreadyAtRoot"
        case .emptyPath: suffix = "EmptyPath"
        case .notInStack: suffix = "NotInStack"
        case .duplicateElement: suffix = "DuplicateElement"
        case .invalidCount: suffix = "InvalidCount"
        case .noPresenter: suffix = "NoPresenter"
        case .slotOccupied: suffix = "SlotOccupied"
        case .presenterIsLeaf: suffix = "PresenterIsLeaf"
        case .unknownPresentationKind: suffix = "UnknownPresentationKind"
        case .cannotPresent, .cannotPresentOn: suffix = "CannotPresent"
        case .alreadyPresenting: suffix = "AlreadyPresenting"
        case .invalidBrowserURL: suffix = "InvalidURL"
        case .transitionNotEligible: suffix = "TransitionNotEligible"
        case .nothingToDismiss: suffix = "NothingToDismiss"
        case .nothingToGoBack: suffix = "NothingToGoBack"
        case .nothingToGoForward: suffix = "NothingToGoForward"
        case .routeNotFound: suffix = "RouteNotFound"
        case .notInsidePresentation: suffix = "NotInsidePresentation"
        case .cannotHide: suffix = "NothingToHide"
        case .noTabs: suffix = "NoTabs"
        case .unknownTab: suffix = "UnknownTab"
        case .noSwitchedModel: suffix = "NoSwitched"
        case .invalidSpec: suffix = "InvalidSpec"
        case .invalidURL: suffix = "InvalidURL"
        case .invalidEffect: suffix = "InvalidEffect"
        case .emptyBatch: suffix = "EmptyBatch"
        case .wrongKind: suffix = "WrongKind"
        case .notPresented: suffix = "NotPresented"
        case .indexOutOfRange: suffix = "StaleReport"
        case .unknownAction: suffix = "UnknownAction"
        case .windowClosed: suffix = "WindowClosed"
        case .invalidSnapshot: suffix = "InvalidSnapshot"
        case .unknownScreen: suffix = "UnknownScreen"
        case .unknownTag: suffix = "UnknownTag"
        case .duplicateTag: suffix = "DuplicateTag"
        case .screenNotInStack: suffix = "ScreenNotInStack"
        case .entryRefused: suffix = "EntryRefused"
        case .prevented: suffix = "Prevented"
        case .denied, .decisionPending, .undecided: suffix = "Denied"
        case .noContainer: suffix = "NoContainer"
        case .unknownChild: suffix = "UnknownChild"
        case .unknownScheduled: suffix = "UnknownScheduled"
        case .duplicateScheduled: suffix = "DuplicateScheduled"
        case .handlerDepthExceeded: suffix = "HandlerDepthExceeded"
        case .handlerCycle: suffix = "HandlerCycle"
        }
        return "org.navsession.Error.\(suffix)"
    }
}

extension SessionError {
    /// The D-Bus error name (see the table in the type's documentation).
    public var errorName: String {
        switch self {
        case .unknownScene: "org.navsession.Error.UnknownScene"
        case .unknownWindow: "org.freedesktop.DBus.Error.UnknownObject"
        case .unknownDialog: "org.navsession.Error.UnknownDialog"
        case .invalidArguments: "org.freedesktop.DBus.Error.InvalidArgs"
        case .limitsExceeded: "org.freedesktop.DBus.Error.LimitsExceeded"
        case .invalidBatch: "org.navsession.Error.InvalidBatch"
        case .invalidCommand: "org.navsession.Error.InvalidCommand"
        case .navigation(let error): error.errorName
        case .deepLink(let error):
            switch error {
            case .urlTooLong: "org.freedesktop.DBus.Error.LimitsExceeded"
            case .malformedURL: "org.navsession.Error.MalformedURL"
            case .wrongScheme: "org.navsession.Error.WrongScheme"
            case .unknownRoute: "org.navsession.Error.UnknownRoute"
            case .missingParameter: "org.navsession.Error.MissingParameter"
            case .badParameterValue: "org.navsession.Error.BadParameter"
            }
        case .deepLinkApply(let error):
            switch error {
            case .windowClosed: "org.navsession.Error.WindowClosed"
            case .noTabs: "org.navsession.Error.NoTabs"
            case .unknownTab: "org.navsession.Error.UnknownTab"
            case .noStack: "org.navsession.Error.NoStack"
            case .blockedByDialog: "org.navsession.Error.BlockedByDialog"
            case .pushWithoutNavigation: "org.navsession.Error.InvalidRoute"
            }
        case .manifest: "org.navsession.Error.InvalidManifest"
        case .storageFailed: "org.navsession.Error.StorageFailed"
        case .accessDenied: "org.freedesktop.DBus.Error.AccessDenied"
        case .unreadableState, .unsafeStateDirectory, .stateDirectoryLocked: "org.navsession.Error.StorageFailed"
        case .versionMismatch, .versionNotReached: "org.navsession.Error.VersionMismatch"
        case .unknownGuard: "org.navsession.Error.UnknownGuard"
        case .guardTaken: "org.navsession.Error.GuardTaken"
        case .unknownClosedWindow: "org.navsession.Error.UnknownClosedWindow"
        case .versionNotKept: "org.navsession.Error.VersionNotKept"
        case .nothingToUndo: "org.navsession.Error.NothingToUndo"
        case .nothingToRedo: "org.navsession.Error.NothingToRedo"
        case .unknownSession: "org.navsession.Error.UnknownSession"
        }
    }
}
