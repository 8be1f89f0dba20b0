import NavigationCore

/// What one change came to — the one value a change returns, whichever way it came in (a method, a batch, a
/// report, a deep link, a scheduled run, a provider's redirect): applied with its outcome, refused with the error,
/// or waiting for a guard provider — together with what it left to announce besides (refusals by protection marks,
/// and a mark's dialog presented in a refused change's place). The daemon announces and replies from this value
/// alone; nothing is left in the session for it to collect later.
public struct ChangeResult: Sendable {
    /// How the change ended.
    public enum Kind: Sendable {
        /// Applied (or a no-op): its outcome, to announce and reply from.
        case applied(SessionOutcome)
        /// Refused: nothing of it applied (the caller's error).
        case refused(any Error)
        /// A guard provider must decide first: ask it, then run the change again.
        case asks(GuardQuestion)
        /// Its window waits for a provider's decision about an earlier change: queue behind it.
        case queued(behind: WindowNumber)
    }

    /// How the change ended.
    public let kind: Kind
    /// The changes protection marks refused on the way, one `Window1.Prevented` each, in order.
    public let refusals: [ProtectionRefusal]
    /// Changes made in place of a refused one (a mark's dialog presented): announced before ``kind``'s outcome.
    public let madeInstead: SessionOutcome?

    /// Whether there is anything to announce besides the outcome.
    public var hasSideEffects: Bool { !refusals.isEmpty || madeInstead != nil }
}

extension Session {
    /// Runs `body` as one change and returns what it came to (``ChangeResult``): the only way the daemon makes a
    /// change, so no way in can forget what a refusal leaves to announce.
    ///
    /// - Parameters:
    ///   - asking: whether the change may wait for a guard provider (a caller's change while providers are in play:
    ///     it then ends ``ChangeResult/Kind/asks(_:)`` or ``ChangeResult/Kind/queued(behind:)`` instead of refused);
    ///     `false` for the plain path, where a guard's `onAbsent` decides at once.
    ///   - window: the change's window (`nil`: known only once it runs, a deep link).
    ///   - approvals: the guards already asked about this change, with the version they saw.
    ///   - rerun: applies a queued change of a waiting window again (it does not queue behind itself).
    public func change(
        asking: Bool, window: WindowNumber? = nil, approvals: [String: Int] = [:], rerun: Bool = false,
        _ body: () throws -> SessionOutcome
    ) -> ChangeResult {
        let kind: ChangeResult.Kind
        if asking {
            guardProviders.mayWait = true
            guardProviders.asking = window
            guardProviders.approvals = approvals
            guardProviders.bypass = rerun ? window : nil
        }
        guardProviders.question = nil
        guardProviders.queueBehind = nil
        do {
            kind = .applied(try body())
        } catch {
            if let question = guardProviders.question {
                kind = .asks(question)
            } else if let number = guardProviders.queueBehind {
                kind = .queued(behind: number)
            } else {
                kind = .refused(error)
            }
        }
        if asking {
            guardProviders.mayWait = false
            guardProviders.asking = nil
            guardProviders.bypass = nil
            guardProviders.approvals = [:]
        }
        guardProviders.question = nil
        guardProviders.queueBehind = nil
        guard !refusals.isEmpty || !deferredEvents.isEmpty else {
            return ChangeResult(kind: kind, refusals: [], madeInstead: nil)
        }
        defer {
            refusals = []
            deferredEvents = []
        }
        return ChangeResult(
            kind: kind, refusals: refusals,
            madeInstead: deferredEvents.isEmpty ? nil : outcome(window: nil, events: deferredEvents))
    }
}
