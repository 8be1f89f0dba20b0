import Logging

/// Scheduled batches: `schedule` / `cancelScheduled`, running one when its deadline comes,
/// and their lifecycle (a batch goes with the model that scheduled it). Docs/navigation-core.md, "Scheduled commands".
extension NavigationWindow {
    /// The earliest deadline of the window's scheduled batches (ms since the Unix epoch), `nil` when none waits.
    /// O(scheduled), at most ``GraphLimits/maxScheduled``.
    public var earliestScheduledDeadline: Int64? { scheduled.lazy.map(\.deadline).min() }

    /// The scheduled batch with `id`, if one waits.
    public func scheduledBatch(_ id: String) -> ScheduledBatch? { scheduled.first { $0.id == id } }

    /// `batch` with every `schedule` given its absolute deadline from ``wallClock`` (entries that have one keep it):
    /// what the session journals, so a replay schedules the same deadline. Free when the batch schedules nothing.
    public func withDeadlines(_ batch: [BatchCommand]) -> [BatchCommand] {
        guard batch.contains(where: { $0.command.schedules }) else { return batch }
        let now = wallClock()
        return batch.map { entry in
            var entry = entry
            entry.command = entry.command.fillingDeadline(now: now)
            return entry
        }
    }

    /// The id a batch scheduled now without one would get (`s<n>`, skipping ids callers took).
    public var nextScheduleID: String {
        var number = nextScheduleNumber
        while scheduledBatch("s" + DirectJSON.decimal(number)) != nil { number += 1 }
        return "s" + DirectJSON.decimal(number)
    }

    /// `schedule`: checks the limits and adds the batch (journaled, so a failed change takes it back).
    func schedule(_ spec: ScheduleSpec, from origin: Node) throws(NavigationError) {
        let limits = configuration.limits
        guard spec.afterMs <= limits.maxScheduleDelayMs else {
            throw .limitsExceeded("a batch is scheduled after \(spec.afterMs) ms; at most \(limits.maxScheduleDelayMs)")
        }
        if let deadline = spec.deadline, CheckedNumber.subtracting(deadline, wallClock()) > Int64(limits.maxScheduleDelayMs) {
            throw .limitsExceeded("a batch is scheduled more than \(limits.maxScheduleDelayMs) ms ahead")
        }
        guard scheduled.count < limits.maxScheduled else {
            throw .limitsExceeded("the window has \(scheduled.count) scheduled batches; at most \(limits.maxScheduled)")
        }
        if let author = spec.author { try limits.checkName(author, "a scheduled batch's author") }
        if let id = spec.id {
            guard !id.isEmpty else { throw .invalidSpec("a scheduled batch's id is empty") }
            try limits.checkName(id, "a scheduled batch's id")
            guard scheduledBatch(id) == nil else { throw .duplicateScheduled(id) }
        }
        try checkScheduled(spec.commands, from: origin)
        tx.undo.append(.scheduled(scheduled, next: nextScheduleNumber))
        let id = spec.id ?? nextScheduleID
        // An assigned id, or the one the window would assign given explicitly (Window1 `Schedule`), moves the counter.
        if id == nextScheduleID, let number = Int(id.dropFirst()) { nextScheduleNumber = number + 1 }
        let deadline = spec.deadline ?? CheckedNumber.adding(wallClock(), Int64(spec.afterMs))
        let batch = ScheduledBatch(
            id: id, deadline: deadline, model: origin.id, commands: spec.commands, overdue: spec.overdue, author: spec.author)
        // A waiting batch is part of the state: its size counts in the window's content (GetState carries it).
        tx.costDelta += ContentCost.of(batch)
        scheduled.append(batch)
    }

    /// The batch tried now from the scheduling model and undone (as a dialog's actions are when it is presented):
    /// an error in what it asks for — an undeclared screen, an invalid spec or count, an unknown presentation kind, a
    /// bad URL or effect — refuses the schedule; an error of the state (nothing to dismiss yet, no such tab now) does
    /// not, since the batch runs in the state of its deadline.
    private func checkScheduled(_ commands: [BatchCommand], from origin: Node) throws(NavigationError) {
        let point = savepoint()
        defer { rollback(to: point) }
        do throws(NavigationError) {
            for (position, entry) in commands.enumerated() {
                do throws(NavigationError) {
                    try run(entry.command, from: try entry.from.map(resolve) ?? origin.id)
                } catch {
                    throw commands.count == 1 ? error : .batchCommandFailed(index: position, error)
                }
            }
        } catch {
            if Self.isInputError(error) { throw error }
        }
    }

    /// Whether `error` (unwrapped from a batch, route or action) is about the request, whatever the state.
    static func isInputError(_ error: NavigationError) -> Bool {
        switch error {
        case .batchCommandFailed(_, let inner), .routeFailed(_, let inner), .actionUnavailable(_, _, let inner):
            isInputError(inner)
        case .unknownScreen, .invalidSpec, .unknownPresentationKind, .invalidURL, .invalidEffect, .emptyBatch, .invalidCount:
            true
        default:
            false
        }
    }

    /// `cancelScheduled`. Fails: ``NavigationError/unknownScheduled(_:)``.
    func cancelScheduled(_ id: String) throws(NavigationError) {
        guard let index = scheduled.firstIndex(where: { $0.id == id }) else { throw .unknownScheduled(id) }
        tx.undo.append(.scheduled(scheduled, next: nextScheduleNumber))
        tx.costDelta -= ContentCost.of(scheduled.remove(at: index))
    }

    /// Drops the batches scheduled by models a committing change removes. O(removed + scheduled).
    func cancelScheduled(of removed: [Node]) {
        let gone = Set(removed.map(\.id))
        scheduled.removeAll { batch in
            guard gone.contains(batch.model) else { return false }
            contentCost -= ContentCost.of(batch)
            logger.debug("scheduled batch cancelled: its model finished", metadata: ["id": "\(batch.id)", "model": "\(batch.model)"])
            return true
        }
    }

    /// Runs scheduled batch `id` as one change from its scheduling model (cause ``ChangeCause/scheduled(id:_:)``): the
    /// batch leaves the list and its commands run, through the same path as any batch (limits, budgets, entry
    /// conditions, marks, the commit gate).
    ///
    /// - Throws: ``NavigationError/unknownScheduled(_:)``, or the batch's error; nothing changes then (the batch
    ///   stays listed: the caller drops it with ``dropScheduled(_:)``).
    @discardableResult
    public func runScheduled(
        _ id: String, budget: ContentBudget? = nil, checkingEntry: Bool = true
    ) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        guard let index = scheduled.firstIndex(where: { $0.id == id }) else { throw .unknownScheduled(id) }
        let entry = scheduled[index]
        let batch = entry.batch
        return try transact(
            cause: .scheduled(id: id, entry.commands), animated: batch.contains { $0.animated }, budget: budget,
            checkingEntry: checkingEntry
        ) { () throws(NavigationError) in
            tx.undo.append(.scheduled(scheduled, next: nextScheduleNumber))
            tx.costDelta -= ContentCost.of(scheduled.remove(at: index))
            for (position, command) in batch.enumerated() {
                do throws(NavigationError) {
                    try run(command.command, from: try command.from.map(resolve) ?? entry.model)
                } catch {
                    throw batch.count == 1 ? error : .batchCommandFailed(index: position, error)
                }
            }
        }
    }

    /// The batches `author` scheduled lose their author (it left the bus): they run with the session's authority.
    /// No version, no event. O(scheduled).
    public func disownScheduled(by author: String) {
        for index in scheduled.indices where scheduled[index].author == author { scheduled[index].author = nil }
    }

    /// Removes scheduled batch `id` without a change (a batch that failed when it ran, or one found overdue with
    /// `overdue: drop` after a restart); `false` when none waits under that id. No version, no event.
    @discardableResult
    public func dropScheduled(_ id: String) -> Bool {
        guard let index = scheduled.firstIndex(where: { $0.id == id }) else { return false }
        contentCost -= ContentCost.of(scheduled.remove(at: index))
        return true
    }
}
