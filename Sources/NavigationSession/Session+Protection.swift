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

    /// Every owner of a mark in the session (a restarted daemon checks that each is still on the bus).
    public var markOwners: Set<String> {
        var owners: Set<String> = []
        for window in windows where window.graph.protectedCount > 0 {
            for entry in window.graph.protections where !entry.protection.owner.isEmpty { owners.insert(entry.protection.owner) }
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

    /// The refusals recorded since the last call (the daemon sends one `Window1.Prevented` signal for each).
    public func takeRefusals() -> [ProtectionRefusal] {
        defer { refusals = [] }
        return refusals
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
