import DBusKit
import NavigationCore

/// Every error a NavSession call can end in, as one typed enum.
///
/// The daemon's errors (`org.navsession.Error.*`, Docs/dbus-api.md "Every error name") and the standard
/// D-Bus errors it replies with each have their own case carrying the daemon's message; an error name this
/// library does not know becomes ``other(name:message:)``. A few cases come from the client itself: the bus
/// could not be reached, a reply did not come in time, a ``NavSessionClient/wait(for:until:timeout:)`` ran
/// out of time.
///
/// ```swift
/// do throws(NavSessionError) {
///     try await window.stackDropLast()
/// } catch .alreadyAtRoot(let message) {
///     print("nothing to pop: \(message)")
/// } catch {
///     print(error.name, error.message)
/// }
/// ```
///
/// Every bus failure is turned into this enum by one function, ``init(_:)``.
public enum NavSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    // MARK: org.navsession.Error.*
    /// `org.navsession.Error.AlreadyAtRoot`: `StackDropLast` on a stack already at its root.
    case alreadyAtRoot(String)
    /// `org.navsession.Error.AlreadyPresenting`: `PresentOn` without replace on a model that already presents.
    case alreadyPresenting(String)
    /// `org.navsession.Error.TransitionNotEligible`: a transition the manifest allows only between other screens.
    case transitionNotEligible(String)
    /// `org.navsession.Error.BadParameter`: A deep-link parameter of the wrong type.
    case badParameter(String)
    /// `org.navsession.Error.BlockedByDialog`: An alert or dialog is in the way of the command.
    case blockedByDialog(String)
    /// `org.navsession.Error.CannotPresent`: The model sits where it cannot present.
    case cannotPresent(String)
    /// `org.navsession.Error.DetachedModel`: A model removed earlier in the same batch, or in a branch a switched
    /// model keeps (suspended until it switches back).
    case detachedModel(String)
    /// `org.navsession.Error.DuplicateElement`: A model appears twice in a new stack path.
    case duplicateElement(String)
    /// `org.navsession.Error.EmptyBatch`: `Apply` of an empty batch.
    case emptyBatch(String)
    /// `org.navsession.Error.EmptyPath`: A stack path cannot be empty.
    case emptyPath(String)
    /// `org.navsession.Error.InvalidBatch`: Batch JSON that does not decode: bad JSON, unknown command or key.
    case invalidBatch(String)
    /// `org.navsession.Error.InvalidCommand`: `ExecuteAt` JSON that does not decode.
    case invalidCommand(String)
    /// `org.navsession.Error.InvalidCount`: A count below 1 (`StackDropLast(0)`).
    case invalidCount(String)
    /// `org.navsession.Error.InvalidEffect`: An effect command with invalid arguments.
    case invalidEffect(String)
    /// `org.navsession.Error.InvalidManifest`: The application manifest is invalid.
    case invalidManifest(String)
    /// `org.navsession.Error.InvalidRoute`: A push with no navigation in a route.
    case invalidRoute(String)
    /// `org.navsession.Error.InvalidSnapshot`: A snapshot that breaks the graph's rules.
    case invalidSnapshot(String)
    /// `org.navsession.Error.InvalidSpec`: A screen without a required parameter, with an undeclared one, or another invalid model.
    case invalidSpec(String)
    /// `org.navsession.Error.InvalidURL`: A URL that is not absolute.
    case invalidURL(String)
    /// `org.navsession.Error.MalformedURL`: A deep link that cannot be parsed.
    case malformedURL(String)
    /// `org.navsession.Error.MissingParameter`: A deep-link parameter is missing.
    case missingParameter(String)
    /// `org.navsession.Error.NoPresenter`: No model can present from the executing model.
    case noPresenter(String)
    /// `org.navsession.Error.NoStack`: No stack at or above the executing model.
    case noStack(String)
    /// `org.navsession.Error.NoSwitched`: No switched model at or above the executing model.
    case noSwitched(String)
    /// `org.navsession.Error.NoTabs`: No tab container at or above the executing model.
    case noTabs(String)
    /// `org.navsession.Error.NotInStack`: A model that is not an element of the stack.
    case notInStack(String)
    /// `org.navsession.Error.NotInsidePresentation`: The model is not inside a presentation.
    case notInsidePresentation(String)
    /// `org.navsession.Error.NotPresented`: The reported model is not presented.
    case notPresented(String)
    /// `org.navsession.Error.NothingToDismiss`: Nothing to dismiss from the executing model.
    case nothingToDismiss(String)
    /// `org.navsession.Error.NothingToGoBack`: `GoBack` found no route, no alert or dialog and no tab to go back to.
    case nothingToGoBack(String)
    /// `org.navsession.Error.NothingToGoForward`: `GoForward` found the forward list empty or shorter than asked.
    case nothingToGoForward(String)
    /// `org.navsession.Error.NothingToUndo`: `Undo` found no change to take back.
    case nothingToUndo(String)
    /// `org.navsession.Error.NothingToRedo`: `Redo` found no undone change (a change since an undo clears them).
    case nothingToRedo(String)
    /// `org.navsession.Error.UnknownSession`: no named session has this name.
    case unknownSession(String)
    /// `org.navsession.Error.NothingToHide`: The model is neither a presented stack's root nor a pushed element.
    case nothingToHide(String)
    /// `org.navsession.Error.PresenterIsLeaf`: An alert or dialog cannot present.
    case presenterIsLeaf(String)
    /// `org.navsession.Error.RouteNotFound`: `GoBackTo` found no route of the active branch matching its selector.
    case routeNotFound(String)
    /// `org.navsession.Error.SlotOccupied`: The presenter already presents a model.
    case slotOccupied(String)
    /// `org.navsession.Error.StaleReport`: A renderer report about a state the window is no longer in.
    case staleReport(String)
    /// `org.navsession.Error.StorageFailed`: The change could not be written to the state directory.
    case storageFailed(String)
    /// `org.navsession.Error.UnknownAction`: An alert or dialog has no such action.
    case unknownAction(String)
    /// `org.navsession.Error.UnknownDialog`: No such manifest dialog.
    case unknownDialog(String)
    /// `org.navsession.Error.UnknownModel`: No model with that id in the window.
    case unknownModel(String)
    /// `org.navsession.Error.UnknownPresentationKind`: A presentation kind the manifest does not declare.
    case unknownPresentationKind(String)
    /// `org.navsession.Error.UnknownRoute`: A deep link matches no route.
    case unknownRoute(String)
    /// `org.navsession.Error.UnknownScene`: A scene the manifest does not declare.
    case unknownScene(String)
    /// `org.navsession.Error.UnknownScreen`: A screen the manifest does not declare; the message names the closest declared one.
    case unknownScreen(String)
    /// `org.navsession.Error.UnknownTab`: The tab container has no such tab.
    case unknownTab(String)
    /// `org.navsession.Error.UnknownTag`: No model of the window carries the tag.
    case unknownTag(String)
    /// `org.navsession.Error.DuplicateTag`: Another model already carries the tag (the message names it).
    case duplicateTag(String)
    /// `org.navsession.Error.ScreenNotInStack`: `bringToFront` found no element of the stack showing the screen.
    case screenNotInStack(String)
    /// `org.navsession.Error.NoContainer`: No custom container at or above the executing model (`selectChild`).
    case noContainer(String)
    /// `org.navsession.Error.UnknownChild`: The container has no such child (index out of range, or not its child).
    case unknownChild(String)
    /// `org.navsession.Error.EntryRefused`: A dry run (`Check`) or a report would start a screen whose entry
    /// condition does not hold (Docs/guards.md); a change by a command is redirected instead.
    case entryRefused(String)
    /// `org.navsession.Error.Prevented`: The change would finish or suspend a protected model, or touches a mark another
    /// client owns; nothing was applied (the message names the model, reason and owner).
    case prevented(String)
    /// `org.navsession.Error.VersionMismatch`: `Apply`/`Check` with an expected version the window is not at; nothing was applied.
    case versionMismatch(String)
    /// `org.navsession.Error.VersionNotKept`: `GetStateAt` of a version outside the window's kept history.
    case versionNotKept(String)
    /// `org.navsession.Error.Denied`: a guard provider (or its guard's `onAbsent`/`onTimeout`) refused the change;
    /// the message names the guard and the reason (Docs/guards.md).
    case denied(String)
    /// `org.navsession.Error.UnknownGuard`: the manifest declares no such guard.
    case unknownGuard(String)
    // Scheduled commands.
    /// `org.navsession.Error.UnknownScheduled`: no scheduled batch waits under the id (`CancelScheduled`).
    case unknownScheduled(String)
    // Recently closed windows.
    /// `org.navsession.Error.UnknownClosedWindow`: no recently closed window has the id (`ReopenWindow`), or none
    /// was closed.
    case unknownClosedWindow(String)
    /// `org.navsession.Error.DuplicateScheduled`: a scheduled batch already waits under the id.
    case duplicateScheduled(String)
    /// `org.navsession.Error.HandlerDepthExceeded`: manifest message handlers nested too deeply; nothing applied.
    case handlerDepthExceeded(String)
    /// `org.navsession.Error.HandlerCycle`: a manifest message handler sent its message back to itself; nothing applied.
    case handlerCycle(String)
    /// `org.navsession.Error.GuardTaken`: another client provides the guard.
    case guardTaken(String)
    /// `org.navsession.Error.WindowClosed`: A deep link's window closed.
    case windowClosed(String)
    /// `org.navsession.Error.WrongKind`: The model is not of the kind the command needs.
    case wrongKind(String)
    /// `org.navsession.Error.WrongScheme`: A deep link with a scheme the application does not own.
    case wrongScheme(String)

    // MARK: org.freedesktop.DBus.Error.*
    /// `org.freedesktop.DBus.Error.InvalidArgs`: Wrong signature, bad argument text, or a window's missing or unknown parameter.
    case invalidArgs(String)
    /// `org.freedesktop.DBus.Error.UnknownMethod`: The object has no such method.
    case unknownMethod(String)
    /// `org.freedesktop.DBus.Error.UnknownObject`: A dismissed or unknown window.
    case unknownObject(String)
    /// `org.freedesktop.DBus.Error.UnknownInterface`: The object does not implement that interface.
    case unknownInterface(String)
    /// `org.freedesktop.DBus.Error.UnknownProperty`: The interface has no such property.
    case unknownProperty(String)
    /// `org.freedesktop.DBus.Error.PropertyReadOnly`: The property cannot be set.
    case propertyReadOnly(String)
    /// `org.freedesktop.DBus.Error.LimitsExceeded`: A limit was hit (URL length, number of windows, array sizes).
    case limitsExceeded(String)
    /// `org.freedesktop.DBus.Error.AccessDenied`: `SetCloseOnExit` on a window tied to another client.
    case accessDenied(String)
    /// `org.freedesktop.DBus.Error.NotSupported`: An application action the daemon does not offer.
    case notSupported(String)
    /// `org.freedesktop.DBus.Error.Failed`: An internal fault of the daemon (logged with its cause there).
    case failed(String)
    /// `org.freedesktop.DBus.Error.ServiceUnknown`: No daemon owns the application id on this bus (and none can be activated).
    case serviceUnknown(String)
    /// `org.freedesktop.DBus.Error.NameHasNoOwner`: No daemon owns the application id on this bus.
    case nameHasNoOwner(String)
    /// `org.freedesktop.DBus.Error.NoReply`: The daemon did not reply (libdbus's own error).
    case noReply(String)

    // MARK: Other names

    /// An error name this library does not know, with its message.
    case other(name: String, message: String)

    // MARK: Client-side failures

    /// The bus could not be reached (wrong address, no session bus).
    case connectionFailed(String)
    /// No reply arrived within the call's timeout.
    case timedOut(String)
    /// The connection to the bus is closed or was lost.
    case disconnected(String)
    /// The daemon's reply does not have the types the contract promises.
    case unexpectedReply(member: String, signature: String)
    /// A value could not be encoded for the daemon (e.g. a command that does not encode as JSON).
    case encodingFailed(String)
    /// The daemon's JSON could not be decoded (e.g. a snapshot of a newer format).
    case decodingFailed(String)
    /// The window is gone (dismissed or closed) while it was being followed.
    case windowGone(window: String)
    /// The daemon left the bus while a window was being followed.
    case daemonLeft(String)
    /// A wait ran out of time; `lastState` is the last state seen (`nil` when none could be read).
    case waitTimedOut(lastState: WindowSnapshot?, timeout: Duration)
    /// ``NavSessionClient/waitSettled(_:version:timeout:)`` ran out of time; the message says whether a renderer
    /// follows the window (`SettledBy`) and the last settled version.
    case settleTimedOut(String)
    /// The calling task was cancelled.
    case cancelled

    /// The error for a D-Bus error name and message: the case of a known name, else ``other(name:message:)``.
    public init(name: String, message: String) {
        self = Self.known(name: name, message: message) ?? .other(name: name, message: message)
    }

    /// The D-Bus error name (`org.navsession.Error.NoStack`, …); client-side failures have names under
    /// `org.navsession.Client.Error.` (never sent on the bus).
    public var name: String {
        if let bus = busError { return bus.name }
        return switch self {
        case .other(let name, _): name
        case .connectionFailed: "org.navsession.Client.Error.ConnectionFailed"
        case .timedOut: "org.navsession.Client.Error.TimedOut"
        case .disconnected: "org.navsession.Client.Error.Disconnected"
        case .unexpectedReply: "org.navsession.Client.Error.UnexpectedReply"
        case .encodingFailed: "org.navsession.Client.Error.EncodingFailed"
        case .decodingFailed: "org.navsession.Client.Error.DecodingFailed"
        case .windowGone: "org.navsession.Client.Error.WindowGone"
        case .daemonLeft: "org.navsession.Client.Error.DaemonLeft"
        case .waitTimedOut: "org.navsession.Client.Error.WaitTimedOut"
        case .settleTimedOut: "org.navsession.Client.Error.SettleTimedOut"
        case .cancelled: "org.navsession.Client.Error.Cancelled"
        default: ""  // a bus error's case: answered above from the generated table
        }
    }

    /// The human-readable message (the daemon's, for errors it replied with).
    public var message: String {
        if let bus = busError { return bus.message }
        return switch self {
        case .other(_, let message), .connectionFailed(let message), .timedOut(let message),
             .disconnected(let message), .encodingFailed(let message), .decodingFailed(let message),
             .daemonLeft(let message), .settleTimedOut(let message):
            message
        case .unexpectedReply(let member, let signature):
            "unexpected reply to \(member): signature '\(signature)'"
        case .windowGone(let window):
            "the window \(window) is gone"
        case .waitTimedOut(let lastState, let timeout):
            "the condition did not hold within \(timeout)"
                + (lastState.map { "; the window was at version \($0.version)" } ?? "")
        case .cancelled:
            "the task was cancelled"
        default:
            ""  // a bus error's case: answered above from the generated table
        }
    }

    /// `name: message`, or just the name when there is no message.
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
