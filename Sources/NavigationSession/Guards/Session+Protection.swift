import Logging
import NavigationCore

/// Protected models owned by clients (Docs/guards.md, "Protected models"): the owner of a mark is the client
/// that set it, and a mark goes when its owner leaves the bus.
extension Session {
    /// `entry` with the owner of its `protect`/`unprotect` commands set to `client` (whatever the JSON said: a
    /// client cannot act for another), and their dialogs checked against the manifest's `dialogs`.
    /// `client == nil` (in process, a replay) keeps the commands as they are.
    /// - Throws: ``SessionError/unknownDialog(_:)``.
    func stampingOwner(_ entry: BatchCommand, client: String?) throws(SessionError) -> BatchCommand {
        var entry = entry
        entry.command = try stampingOwner(entry.command, client: client)
        return entry
    }

    private func stampingOwner(_ command: NavigationCommand, client: String?) throws(SessionError) -> NavigationCommand {
        switch command {
        case .protect(let model, let reason, let dialog, let owner):
            if let dialog, manifest.dialogs[dialog] == nil { throw .unknownDialog(dialog) }
            return .protect(model: model, reason: reason, dialog: dialog, owner: client ?? owner)
        case .unprotect(let model, let owner):
            return .unprotect(model: model, owner: client ?? owner)
        case .sequence(let commands):
            var stamped: [NavigationCommand] = []
            for inner in commands { stamped.append(try stampingOwner(inner, client: client)) }
            return .sequence(stamped)
        case .schedule(var spec):
            // A batch run later carries its author's authority: its marks are the author's, and it may remove
            // only the author's (Docs/guards.md, "Whose authority a change carries").
            guard let client else { return command }
            spec.author = client
            var stamped: [BatchCommand] = []
            for entry in spec.commands { stamped.append(try stampingOwner(entry, client: client)) }
            spec.commands = stamped
            return .schedule(spec)
        default:
            return command
        }
    }

    /// Whether some window holds a mark owned by `client`. O(windows), plus O(models) of windows with marks.
    func ownsMarks(_ client: String) -> Bool {
        windows.contains { window in
            window.graph.protectedCount > 0 && window.graph.protections.contains { $0.protection.owner == client }
        }
    }

    /// Every owner of a mark in the session, and every author of a waiting scheduled batch (a restarted daemon
    /// checks that each is still on the bus).
    public var markOwners: Set<String> {
        var owners: Set<String> = []
        for window in windows where window.graph.protectedCount > 0 {
            for entry in window.graph.protections where !entry.protection.owner.isEmpty { owners.insert(entry.protection.owner) }
        }
        for number in scheduledWindows {
            guard let window = windowsByNumber[number] else { continue }
            for batch in window.graph.scheduled { if let author = batch.author { owners.insert(author) } }
        }
        return owners
    }

    /// Removes the marks `client` owns, one change per window that has any (journaled, `Changed` emitted).
    func dropMarks(of client: String, events: inout [SessionEvent]) throws(SessionError) {
        for window in windows where !window.graph.isClosed && window.graph.protectedCount > 0 {
            let owned = window.graph.protections.filter { $0.protection.owner == client }
            guard !owned.isEmpty else { continue }
            let batch = owned.map { BatchCommand(.unprotect(model: .id($0.model), owner: nil), from: window.graph.rootID) }
            try applyChange(window, batch, events: &events)
        }
    }

    /// Records `error` for the `Prevented` signal when it (or the command error it wraps) is a protection's refusal.
    func noteRefusal(_ error: NavigationError, in number: WindowNumber) {
        var inner = error
        while true {
            switch inner {
            case .batchCommandFailed(_, let wrapped), .routeFailed(_, let wrapped), .actionUnavailable(_, _, let wrapped):
                inner = wrapped
                continue
            case .prevented(let model, let reason, let dialog, let owner):
                // Bounded: a daemon that never takes them (a library user) keeps only the latest.
                if refusals.count >= 64 { refusals.removeFirst() }
                refusals.append(ProtectionRefusal(window: number, model: model, reason: reason, dialog: dialog, owner: owner))
            default:
                break
            }
            return
        }
    }
}

/// A change refused by a mark whose dialog was presented in its place.
struct PendingReapply {
    /// The refused change.
    var batch: [BatchCommand]
    /// The protected model whose mark the re-applied change waives.
    var model: ModelID
}

extension Session {
    /// Presents the dialog a refusing mark names in place of the refused `batch`, as a change of its own, and keeps
    /// `batch` for the dialog's re-applying action. Nothing when the mark names no dialog, the dialog has no
    /// re-applying action, or it cannot be presented (the protected model's nearest presenter already shows
    /// something: the caller still gets `Prevented`).
    func presentGuardDialog(for error: NavigationError, in window: SessionWindow, batch: [BatchCommand]) {
        guard !replaying, !presentingGuardDialog, case .prevented(let model, _, let name?, _) = error.innermostCommandError,
            let declared = manifest.dialogs[name], declared.content.actions.contains(where: \.reapply),
            (pendingReapply[window.number]?.count ?? 0) < 16
        else { return }
        presentingGuardDialog = true
        defer { presentingGuardDialog = false }
        do throws(SessionError) {
            let presentation = try self.presentation(kind: declared.kind.rawValue, screen: name, in: window.number)
            var events: [SessionEvent] = []
            let event = try applyChange(window, [BatchCommand(.present(presentation), from: model)], events: &events)
            guard let alert = event?.started.first else { return }
            pendingReapply[window.number, default: [:]][alert] = PendingReapply(batch: batch, model: model)
            deferredEvents.append(contentsOf: events)
        } catch {
            logger.debug("the dialog '\(name)' of model \(model) could not be presented: \(error)")
        }
    }

    /// Whether `action` of the dialog `alert` is its re-applying action.
    func reapplies(_ action: String, of alert: ModelID, in window: SessionWindow) -> Bool {
        switch window.graph.model(alert)?.content {
        case .alert(let content), .confirmationDialog(let content): content.actions.first { $0.id == action }?.reapply ?? false
        default: false
        }
    }

    /// Re-applies a refused change once, closing its dialog, as one change; when the change no longer applies the
    /// dialog only closes, the failure is logged and announced as `Effect("reapplyFailed", {payload: "<name>: <message>"})`.
    func reapply(
        _ pending: PendingReapply, closing alert: ModelID, action: String, in window: SessionWindow
    ) throws(SessionError) -> SessionOutcome {
        var events: [SessionEvent] = []
        let before = window.graph.contentCost
        var batch = pending.batch
        var waiving = [pending.model]
        let event: ChangeEvent
        var failure: NavigationError?
        do {
            event = try gated(window) { () throws(NavigationError) in
                try window.graph.reapply(closing: alert, action: action, batch: batch, waiving: Set(waiving))
            }
        } catch {
            failure = error
            batch = []
            waiving = []
            do {
                event = try gated(window) { () throws(NavigationError) in
                    try window.graph.reapply(closing: alert, action: action, batch: [], waiving: [])
                }
            } catch {
                throw .navigation(error)
            }
        }
        charge(window, contentBefore: before)
        try persist(.reapply(window: window.number, alert: alert, action: action, batch: batch, waiving: waiving, version: event.version))
        afterChange(window, event, events: &events)
        if let failure {
            logger.info("a change re-applied from dialog \(alert) no longer applies: \(failure.message)")
            events.append(.changeFailed(window.number, effect: "reapplyFailed", id: nil, .navigation(failure)))
        }
        return outcome(window: window.number, events: events)
    }
}

extension NavigationError {
    /// The command error a batch or route error wraps.
    var innermostCommandError: NavigationError {
        switch self {
        case .batchCommandFailed(_, let inner), .routeFailed(_, let inner), .actionUnavailable(_, _, let inner):
            inner.innermostCommandError
        default: self
        }
    }
}

/// A change a protection mark refused: which window, which model, why, whose mark, which dialog.
public struct ProtectionRefusal: Hashable, Sendable {
    public var window: WindowNumber
    public var model: ModelID
    public var reason: String
    public var dialog: String?
    public var owner: String
}
