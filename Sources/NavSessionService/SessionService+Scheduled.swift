import DBusKit
import Logging
import NavigationCore
import NavigationSession
import Synchronization

/// Scheduled batches on the bus: Window1 `Schedule`/`CancelScheduled`, and the one timer that
/// runs the due batches at the earliest deadline of any window (re-armed after every operation whose outcome moved it).
extension SessionService {
    /// `Schedule(s commands_json, t after_ms) → s id`, `CancelScheduled(s id) → t version` and
    /// `RunScheduled(s id) → t version`.
    func scheduledMethods() -> [MethodRow] {
        let limits = self.limits
        return [
            MethodRow("Schedule", .change({ call, session in
                let number = try Self.number(of: call.path)
                let window = try session.window(number)
                let commands = try Session.scheduledCommands(fromJSON: call.arguments[0].string ?? "", limits: limits)
                let schedule = NavigationCommand.schedule(
                    commands, afterMs: Int(clamping: call.arguments[1].uint64 ?? 0), id: window.graph.nextScheduleID)
                return try session.apply(window: number, batch: [BatchCommand(schedule)], client: call.client)
            }, reply: { call, outcome in
                let number = try Self.number(of: call.path)
                guard case .commands(let batch)? = outcome.changes(of: number).first?.cause,
                    case .schedule(let spec)? = batch.first?.command
                else { return [.string("")] }
                return [.string(spec.id ?? "")]
            })),
            MethodRow("CancelScheduled", .batch { call, _, _ in
                [BatchCommand(.cancelScheduled(call.arguments[0].string ?? ""))]
            }),
            MethodRow("RunScheduled", .change({ call, session in
                try session.runScheduledNow(
                    window: try Self.number(of: call.path), id: call.arguments[0].string ?? "", client: call.client)
            }, reply: { _, outcome in Self.version(outcome) })),
        ]
    }

    /// After an operation: arms the timer for the session's earliest scheduled deadline when it moved (cancelling
    /// the one armed for the old deadline). Costs one comparison when nothing is scheduled and no timer is armed.
    func rearmScheduleTimer(_ deadline: Int64?, on bus: isolated Bus) {
        scheduleTimer.withLock { timer in
            // Until the restored session's owners are checked (``armRestoredSchedules(on:)``), nothing runs.
            guard timer.started, timer.deadline != deadline else { return }
            timer.task?.cancel()
            timer.deadline = deadline
            guard let deadline else {
                timer.task = nil
                return
            }
            // Saturating and clamped: a restored deadline far away wakes the timer once a day, which arms it again.
            let delay = min(max(0, CheckedNumber.subtracting(deadline, WallClock.now())), 86_400_000)
            timer.task = Task { [weak bus] in
                // The timer sleeps on the clock, never on a thread; a cancelled sleep ends at once.
                try? await Task.sleep(for: .milliseconds(delay))
                guard !Task.isCancelled, let bus else { return }
                await self.runDueScheduled(on: bus)
            }
        }
    }

    /// Starts the timer, armed for the batches the restored session holds: after ``checkRestoredOwners(on:)``,
    /// so no batch runs before its author's and the marks' owners' processes are known.
    func armRestoredSchedules(on bus: isolated Bus) {
        scheduleTimer.withLock { $0.started = true }
        let deadline = state.withLock { state in
            state.armedDeadline = state.session.nextScheduledDeadline
            return state.armedDeadline
        }
        rearmScheduleTimer(deadline, on: bus)
    }

    /// Runs the due batches and announces their changes like any other; then arms the timer for the next deadline.
    func runDueScheduled(on bus: isolated Bus) {
        scheduleTimer.withLock { timer in
            timer.deadline = nil
            timer.task = nil
        }
        // The timer fired: the next perform arms it again for whatever is still waiting.
        state.withLock { $0.armedDeadline = nil }
        do {
            try perform(on: bus) { session in session.runDueScheduled() }
        } catch {
            logger.warning("running scheduled batches: \(error)")
        }
    }
}

/// The armed timer: the deadline it waits for and its task.
struct ScheduleTimer: Sendable {
    var deadline: Int64?
    var task: Task<Void, Never>?
    /// Whether the restored session's owners have been checked: until then the timer is never armed.
    var started = false
}
