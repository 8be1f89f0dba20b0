import Logging
import NavigationCore

/// Scheduled batches (Docs/navigation-core.md, "Scheduled commands"): the windows' waiting
/// batches are theirs (in their state and snapshots); the session runs the due ones, journals each run or drop,
/// and applies the overdue rule after a restart. The daemon keeps one timer for ``nextScheduledDeadline``.
extension Session {
    /// The earliest deadline of any window's scheduled batch (wall-clock ms since the Unix epoch), `nil` when none
    /// waits. O(windows with scheduled batches); nothing to look at when no window has one.
    public var nextScheduledDeadline: Int64? {
        guard !scheduledWindows.isEmpty else { return nil }
        var earliest: Int64?
        for number in scheduledWindows {
            guard let deadline = windowsByNumber[number]?.graph.earliestScheduledDeadline else { continue }
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// Runs every scheduled batch whose deadline is at or before `now` (default: the session clock's wall time),
    /// earliest first, each as one change of its window from its scheduling model (cause
    /// `{"commands":[…],"scheduled":"<id>"}`). A batch that fails changes nothing: it is dropped, journaled as
    /// dropped, logged and announced as `Effect("scheduledFailed", {payload: "<id>: <error name>: <message>"})`, and
    /// the others still run.
    /// - Returns: the events of the changes (and of their effects) to announce.
    @discardableResult
    public func runDueScheduled(now: Int64? = nil) -> SessionOutcome {
        let now = now ?? clock.wallMilliseconds()
        var events: [SessionEvent] = []
        for number in scheduledWindows.sorted() {
            guard let window = windowsByNumber[number] else { continue }
            let due = window.graph.scheduled.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            for batch in due where windowsByNumber[number] != nil {
                runScheduled(batch.id, in: window, events: &events)
            }
            noteScheduled(window)
        }
        return outcome(window: nil, events: events)
    }

    /// Runs scheduled batch `id` of window `number` now, as at its deadline (Window1 `RunScheduled`: tests, trace
    /// replays, a "now" button): from its scheduling model, with its author's authority. Only its author (a
    /// connection of the author's process) may, or any client once it has no author. A batch that fails is dropped
    /// as at its deadline (journaled, `Effect("scheduledFailed")` announced) and the failure is thrown.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``NavigationError/unknownScheduled(_:)``,
    ///   ``SessionError/accessDenied(_:)``, and the batch's error.
    public func runScheduledNow(window number: WindowNumber, id: String, client: String?) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        guard let waiting = window.graph.scheduledBatch(id) else { throw .navigation(.unknownScheduled(id)) }
        if let author = waiting.author, let client, share(of: author) != share(of: client) {
            throw .accessDenied("scheduled batch '\(id)' is \(author)'s; only its author may run it early")
        }
        var events: [SessionEvent] = []
        // As at its deadline, the batch does not wait for a guard provider: a guard's onTimeout decides.
        let mayWait = guardProviders.mayWait
        guardProviders.mayWait = false
        runScheduled(id, in: window, events: &events)
        guardProviders.mayWait = mayWait
        noteScheduled(window)
        for event in events {
            if case .changeFailed(number, _, id, let error) = event {
                deferredEvents.append(contentsOf: events)
                throw error
            }
        }
        return outcome(window: number, events: events)
    }

    private func runScheduled(_ id: String, in window: SessionWindow, events: inout [SessionEvent]) {
        // An earlier batch of the same run may have cancelled this one (or finished its model).
        guard let waiting = window.graph.scheduledBatch(id) else { return }
        // The batch runs with its author's authority: charged to the author's share, its marks the author's
        // (stamped when it was scheduled). Docs/guards.md, "Whose authority a change carries".
        let previous = actingClient
        actingClient = waiting.author
        defer { actingClient = previous }
        let before = window.graph.contentCost
        func fail(_ error: SessionError) {
            logger.notice(
                "a scheduled batch failed at its deadline; dropped, nothing changed",
                metadata: ["window": "\(window.number)", "id": "\(id)", "message": "\(error.message)"])
            window.graph.dropScheduled(id)
            do {
                try persist(.scheduledDropped(window: window.number, id: id))
            } catch {
                logger.error("journaling a dropped scheduled batch failed", metadata: ["error": "\(error.message)"])
            }
            // Never only a log line: whoever watches the window learns it (like `reapplyFailed`).
            events.append(.changeFailed(window.number, effect: "scheduledFailed", id: id, error))
        }
        // The author's shares hold at the deadline too (its marks).
        do throws(SessionError) {
            try checkMarkAndScheduleShares(of: waiting.commands, client: waiting.author)
        } catch {
            fail(error)
            return
        }
        let event: ChangeEvent
        do {
            event = try gated(window) { () throws(NavigationError) in
                try window.graph.runScheduled(id, budget: contentBudget(for: window))
            }
        } catch {
            noteRefusal(error, in: window.number)
            fail(.navigation(error))
            return
        }
        charge(window, contentBefore: before)
        do {
            try persist(.scheduledRan(window: window.number, id: id, version: event.version), cause: event.cause)
        } catch {
            logger.error("journaling a scheduled batch's change failed", metadata: ["error": "\(error.message)"])
        }
        afterChange(window, event, events: &events)
    }

    /// Whether `client` scheduled a batch that still waits. O(scheduled batches).
    func authorsScheduled(_ client: String) -> Bool {
        scheduledWindows.contains { number in
            windowsByNumber[number]?.graph.scheduled.contains { $0.author == client } ?? false
        }
    }

    /// `client` left the bus: its waiting batches that would set a mark are dropped (a mark must have an owner who
    /// can remove it: a mark made for a client that is gone could be removed by no one), journaled and announced as
    /// `Effect("scheduledFailed")`; its other batches stay and run with the session's authority, their `unprotect`s
    /// still the author's.
    func forgetScheduledAuthor(_ client: String, events: inout [SessionEvent]) {
        for number in scheduledWindows.sorted() {
            guard let window = windowsByNumber[number] else { continue }
            for batch in window.graph.scheduled where batch.author == client {
                guard batch.commands.contains(where: { $0.command.protects }) else { continue }
                let error = NavigationError.prevented(
                    model: batch.model, reason: "its author \(client) left the bus; a mark it would set would have no owner",
                    dialog: nil, owner: client)
                logger.notice(
                    "a scheduled batch that would set a mark was dropped: its author left the bus",
                    metadata: ["window": "\(number)", "id": "\(batch.id)", "author": "\(client)"])
                window.graph.dropScheduled(batch.id)
                do {
                    try persist(.scheduledDropped(window: number, id: batch.id))
                } catch {
                    logger.error("journaling a dropped scheduled batch failed", metadata: ["error": "\(error.message)"])
                }
                events.append(.changeFailed(number, effect: "scheduledFailed", id: batch.id, .navigation(error)))
            }
            // The rest run with the session's authority; journaled, since a later close or save keeps only batches
            // without an author (a replay must find these without theirs).
            if window.graph.scheduled.contains(where: { $0.author == client }) {
                window.graph.disownScheduled(by: client)
                do {
                    try persist(.scheduledDisowned(window: number, author: client))
                } catch {
                    logger.error("journaling a disowned scheduled batch failed", metadata: ["error": "\(error.message)"])
                }
            }
            noteScheduled(window)
        }
    }

    /// Keeps ``scheduledWindows`` current for `window` after it changed. O(1).
    func noteScheduled(_ window: SessionWindow) {
        if window.graph.scheduled.isEmpty {
            if !scheduledWindows.isEmpty { scheduledWindows.remove(window.number) }
        } else {
            scheduledWindows.insert(window.number)
        }
    }

    /// After a restart: the batches whose deadline passed while the daemon was down and whose rule is
    /// ``OverdueRule/drop`` are dropped (journaled); the others (``OverdueRule/run``) run at the first timer.
    func applyOverdueRules() {
        for window in windows { applyOverdueRules(to: window) }
    }

    /// ``applyOverdueRules()`` for one window (restored, or reopened from the recently-closed list).
    func applyOverdueRules(to window: SessionWindow) {
        let now = clock.wallMilliseconds()
        noteScheduled(window)
        for batch in window.graph.scheduled where batch.deadline <= now && batch.overdue == .drop {
            logger.info(
                "a scheduled batch was overdue after the restart; dropped (overdue: drop)",
                metadata: ["window": "\(window.number)", "id": "\(batch.id)"])
            window.graph.dropScheduled(batch.id)
            do {
                try persist(.scheduledDropped(window: window.number, id: batch.id))
            } catch {
                logger.error("journaling a dropped scheduled batch failed", metadata: ["error": "\(error.message)"])
            }
        }
        noteScheduled(window)
    }
}

extension Session {
    /// Reads the commands of Window1 `Schedule` (`commands_json`, a batch's JSON), bounded by
    /// ``SessionLimits/maxJSONBytes`` before it is parsed and by ``SessionLimits/maxBatchCommands`` after.
    /// - Throws: ``SessionError/invalidBatch(_:)`` (not a batch, empty, or scheduling again),
    ///   ``SessionError/limitsExceeded(_:)``.
    public static func scheduledCommands(
        fromJSON json: String, limits: SessionLimits = SessionLimits()
    ) throws(SessionError) -> [BatchCommand] {
        let commands: [BatchCommand]
        do throws(JSONInput.Failure) {
            commands = try JSONInput.decode([BatchCommand].self, from: json, limit: limits.maxJSONBytes)
        } catch {
            throw error.tooLong ? .limitsExceeded(error.message) : .invalidBatch("commands_json: \(error.message)")
        }
        guard !commands.isEmpty else { throw .invalidBatch("commands_json: the batch is empty") }
        guard commands.count <= limits.maxBatchCommands else {
            throw .limitsExceeded("a batch may hold at most \(limits.maxBatchCommands) commands")
        }
        guard !commands.contains(where: { $0.command.schedules }) else {
            throw .invalidBatch("commands_json: a scheduled batch cannot schedule another (nested schedule)")
        }
        return commands
    }
}
