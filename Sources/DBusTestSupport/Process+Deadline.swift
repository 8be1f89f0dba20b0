import Foundation

/// Bounded waits for child processes, so a test can never hang on a process that refuses to exit.
extension Process {
    /// Whether the process has exited within `timeout`; checks every 10 ms and blocks the calling thread.
    ///
    /// For `defer` blocks and other synchronous code. Async code should prefer ``exited(within:)``.
    public func waitForExit(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Whether the process has exited within `timeout`; checks every 10 ms, suspending in between.
    public func exited(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
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
