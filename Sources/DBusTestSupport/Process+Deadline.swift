import DBusKit
import Foundation

/// Bounded waits for child processes, so a test can never hang on a process that refuses to exit. The waits are
/// woken by the exit itself (``ChildExit``, a pidfd), not by a timer.
extension Process {
    /// Whether the process has exited within `timeout`; blocks the calling thread.
    ///
    /// For `defer` blocks and other synchronous code. Async code should prefer ``exited(within:)``.
    public func waitForExit(within timeout: Duration) -> Bool {
        guard isRunning else { return true }
        let deadline = ContinuousClock.now + timeout
        guard ChildExit.wait(processIdentifier, within: timeout) else { return false }
        // It has exited; Foundation records that (`isRunning`) after reaping it, normally within a millisecond.
        // Bounded, not `waitUntilExit()`: a test run hung with both threads of the 2-CPU cooperative pool in
        // `waitUntilExit()` (synchronous `defer` clean-ups) for children that had exited and been reaped, and
        // `isRunning` never turned false. Polling is the only timer here, and only between the exit and
        // Foundation's bookkeeping; past the bound the answer is "not seen to exit", as for a timeout.
        let bookkeeping = max(deadline, ContinuousClock.now + .seconds(5))
        while isRunning {
            guard ContinuousClock.now < bookkeeping else { return false }
            usleep(1000)
        }
        return true
    }

    /// Whether the process has exited within `timeout`; the wait runs on a thread of its own, so no task of
    /// the cooperative pool is blocked.
    public func exited(within timeout: Duration) async -> Bool {
        guard isRunning else { return true }
        return await withCheckedContinuation { continuation in
            let process = UncheckedProcess(process: self)
            let started = DetachedThread.start(name: "process wait") {
                continuation.resume(returning: process.process.waitForExit(within: timeout))
            }
            if !started { continuation.resume(returning: waitForExit(within: timeout)) }
        }
    }

    /// Sends SIGTERM, waits up to `deadline`, then SIGKILLs; returns whether SIGTERM alone sufficed.
    ///
    /// A process that is not running returns true at once.
    @discardableResult
    public func terminate(within deadline: Duration) -> Bool {
        guard isRunning else { return true }
        terminate()
        if waitForExit(within: deadline) { return true }
        kill(processIdentifier, SIGKILL)
        _ = waitForExit(within: .seconds(5))
        return false
    }
}

/// `Process` is not `Sendable`, but the wait only reads its pid and `isRunning`, which Foundation updates under
/// its own lock and allows from any thread.
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
}
