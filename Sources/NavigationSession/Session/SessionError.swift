import NavigationCore
import NavigationRouting

/// A window's number: `/org/navsession/Session1/window/<n>`. Starts at 1, never reused (persisted).
public typealias WindowNumber = UInt32

/// Every way a session operation can fail, with a human message; the service maps each case to a stable D-Bus
/// error name (`errorName` in NavSessionService, the table below).
///
/// A thrown error means the operation changed nothing, except ``storageFailed(_:)``: the change was
/// made in memory but could not be written; it is written with the next full snapshot.
///
/// | case | `errorName` |
/// |---|---|
/// | `unknownScene` | `org.navsession.Error.UnknownScene` |
/// | `unknownWindow` | `org.freedesktop.DBus.Error.UnknownObject` |
/// | `unknownDialog` | `org.navsession.Error.UnknownDialog` |
/// | `invalidArguments` | `org.freedesktop.DBus.Error.InvalidArgs` |
/// | `limitsExceeded` | `org.freedesktop.DBus.Error.LimitsExceeded` |
/// | `invalidBatch` | `org.navsession.Error.InvalidBatch` |
/// | `invalidCommand` | `org.navsession.Error.InvalidCommand` |
/// | `navigation(e)` | `e.errorName` (one distinct name per ``NavigationError`` case) |
/// | `deepLink(e)` | `UnknownRoute`, `WrongScheme`, `MalformedURL`, `MissingParameter`, `BadParameter`, `LimitsExceeded` (too long) |
/// | `deepLinkApply(e)` | `WindowClosed`, `NoTabs`, `UnknownTab`, `NoStack`, `BlockedByDialog`, `InvalidRoute` |
/// | `manifest` | `org.navsession.Error.InvalidManifest` |
/// | `storageFailed` | `org.navsession.Error.StorageFailed` |
/// | `accessDenied` | `org.freedesktop.DBus.Error.AccessDenied` |
/// | `unreadableState` | `org.navsession.Error.StorageFailed` |
/// | `unsafeStateDirectory` | `org.navsession.Error.StorageFailed` |
/// | `stateDirectoryLocked` | `org.navsession.Error.StorageFailed` |
/// | `versionMismatch`, `versionNotReached` | `org.navsession.Error.VersionMismatch` |
/// | `unknownGuard` | `org.navsession.Error.UnknownGuard` |
/// | `guardTaken` | `org.navsession.Error.GuardTaken` |
/// | `unknownClosedWindow` | `org.navsession.Error.UnknownClosedWindow` |
/// | `versionNotKept` | `org.navsession.Error.VersionNotKept` |
/// | `nothingToUndo` | `org.navsession.Error.NothingToUndo` |
/// | `nothingToRedo` | `org.navsession.Error.NothingToRedo` |
/// | `unknownSession` | `org.navsession.Error.UnknownSession` |
public enum SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The manifest declares no scene with this name.
    case unknownScene(String, suggestion: String? = nil)
    /// No open window has this number.
    case unknownWindow(WindowNumber)
    /// The manifest declares no dialog with this name.
    case unknownDialog(String)
    /// Bad arguments: a missing or undeclared window parameter, a malformed route list, a bad window id.
    case invalidArguments(String)
    /// Too many windows, a too-long URL or batch.
    case limitsExceeded(String)
    /// A batch's JSON does not decode; the text is the decoder's message with the key path.
    case invalidBatch(String)
    /// A single command's JSON does not decode.
    case invalidCommand(String)
    /// NavigationCore rejected a command, batch or report; nothing was applied.
    case navigation(NavigationError)
    /// The URL uses the application's scheme but does not resolve to a route.
    case deepLink(DeepLinkError)
    /// The deep link resolved but the chosen window cannot take it.
    case deepLinkApply(DeepLinkApplyError)
    /// The manifest is invalid.
    case manifest(ManifestError)
    /// Writing the session state failed (disk full, permissions); see the type's discussion.
    case storageFailed(String)
    /// A saved state file exists but cannot be read (permissions, I/O error); it is left untouched.
    case unreadableState(String)
    /// The state directory is another user's, or others may write to it (startup only); it is not used.
    case unsafeStateDirectory(String)
    /// Another process holds the state directory's lock (another daemon writes it; startup only). `holder` is
    /// the pid it recorded in the lock file.
    case stateDirectoryLocked(path: String, holder: Int32?)
    /// The caller may not do this to the window (it is tied to another client's lifetime).
    case accessDenied(String)
    /// A compare-and-set found the window at another version than the caller expected; nothing applied.
    case versionMismatch(window: WindowNumber, expected: Int, actual: Int)
    /// `ReportSettled` of a version the window has not reached (`org.navsession.Error.VersionMismatch`).
    case versionNotReached(window: WindowNumber, version: Int, actual: Int)
    /// `GetStateAt` asked for a version the window's history no longer (or never) holds.
    case versionNotKept(window: WindowNumber, version: Int, oldest: Int, newest: Int)
    /// `Undo` with no change to take back (none made, all undone, or older than the kept history).
    case nothingToUndo(window: WindowNumber)
    /// `Redo` with no undone change to make again (none undone, or a change since).
    case nothingToRedo(window: WindowNumber)
    /// No named session has this name (Session1 `OpenSession`, `DeleteSession`).
    case unknownSession(String)
    /// The manifest declares no guard of this name (Session1 `RegisterGuard`, `UnregisterGuard`).
    case unknownGuard(String)
    /// Another client already provides the guard.
    case guardTaken(String, provider: String)
    /// No recently closed window has this id (Session1 `ReopenWindow`); `""` asks for the most
    /// recent one, and none was closed.
    case unknownClosedWindow(String)

    /// A one-line message for people.
    public var message: String {
        switch self {
        case .unknownScene(let scene, let suggestion):
            "unknown scene '\(scene)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownWindow(let number): "no window \(number)"
        case .unknownDialog(let name): "unknown dialog '\(name)'"
        case .invalidArguments(let text): text
        case .limitsExceeded(let text): text
        case .invalidBatch(let text): "invalid batch: \(text)"
        case .invalidCommand(let text): "invalid command: \(text)"
        case .navigation(let error): error.message
        case .deepLink(let error): error.description
        case .deepLinkApply(let error): error.description
        case .manifest(let error): error.description
        case .storageFailed(let text): "cannot save the session: \(text)"
        case .accessDenied(let text): text
        case .unreadableState(let text): "cannot read the saved session (\(text)); it was left as it is"
        case .unsafeStateDirectory(let text): "refusing the state directory: \(text)"
        case .stateDirectoryLocked(let path, let holder):
            "the state directory \(path) is in use by another process"
                + (holder.map { " (pid \($0), which holds its lock)" } ?? " (which holds its lock)")
        case .versionMismatch(let window, let expected, let actual):
            "window \(window) is at version \(actual), not the expected \(expected); nothing was applied"
        case .versionNotReached(let window, let version, let actual):
            "window \(window) is at version \(actual): it has not reached version \(version), so it cannot have settled there"
        case .unknownGuard(let name): "the manifest declares no guard '\(name.prefix(64))'"
        case .guardTaken(let name, let provider): "guard '\(name)' is already provided by \(provider)"
        case .unknownClosedWindow(let id):
            id.isEmpty
                ? "no window was closed recently (ListClosedWindows is empty)"
                : "no recently closed window '\(id.prefix(64))' (ListClosedWindows lists them)"
        case .versionNotKept(let window, let version, let oldest, let newest):
            "window \(window) keeps the states of versions \(oldest) to \(newest), not \(version)"
        case .nothingToUndo(let window): "window \(window) has no change to undo"
        case .nothingToRedo(let window): "window \(window) has no undone change to redo (a change since an undo clears it)"
        case .unknownSession(let name): "no session is saved as '\(name.prefix(64))' (ListSessions lists them)"
        }
    }

    /// The case's name (`limitsExceeded`), for logs; the D-Bus name is the service's to give.
    public var caseName: String { Mirror(reflecting: self).children.first?.label ?? "sessionError" }

    public var description: String { "\(caseName): \(message)" }

    // DeepLinkError is only Equatable, so hashing goes through the case and the message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(caseName)
        hasher.combine(message)
    }
}
