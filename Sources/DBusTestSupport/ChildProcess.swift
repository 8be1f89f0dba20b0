import DBusKit
import Foundation
import Synchronization

/// A child process spawned with a clean signal state (empty mask, default SIGTERM/SIGINT/SIGHUP): tasks on
/// the cooperative pool may have SIGTERM blocked, and Foundation's Process passes that on, so Xvfb and
/// Python would ignore SIGTERM. Spawned by DBusKit's one spawn (the one that starts private buses); for every
/// long-lived child a test starts (Xvfb, the GTK renderer, the benchmark's C floor).
public final class ChildProcess: Sendable {
    /// The process id.
    public let pid: pid_t
    private let status = Mutex<Int32?>(nil)

    private init(pid: pid_t) { self.pid = pid }

    /// Spawns `arguments[0]` (looked up in PATH) with `environment`; stdin is /dev/null.
    public static func spawn(_ arguments: [String], environment: [String: String], stdout: Int32, stderr: Int32) throws -> ChildProcess {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let pid = try PrivateBusDaemon.spawnChild(
            arguments, environment: environment.map { "\($0.key)=\($0.value)" }, stdin: null, stdout: stdout,
            stderr: stderr)
        return ChildProcess(pid: pid)
    }

    /// Whether it has not exited yet (reaping it once it has).
    public var isRunning: Bool {
        status.withLock { status in
            if status != nil { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid || (reaped < 0 && errno == ECHILD) {
                status = raw
                return false
            }
            return true
        }
    }

    /// SIGTERM, then SIGKILL after `deadline`; returns whether SIGTERM sufficed.
    @discardableResult
    public func terminate(within deadline: Duration) -> Bool {
        guard isRunning else { return true }
        kill(pid, SIGTERM)
        if waitForExit(within: deadline) { return true }
        kill(pid, SIGKILL)
        _ = waitForExit(within: .seconds(5))
        return false
    }

    /// The exit status (WEXITSTATUS) once the process exits within `timeout`, else nil (and it is killed).
    public func exitStatus(within timeout: Duration) async -> Int32? {
        // The wait blocks a thread of its own, not one of the cooperative pool.
        let exited = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.waitForExit(within: timeout)) }
        }
        guard exited else {
            terminate(within: .seconds(2))
            return nil
        }
        let raw = status.withLock { $0 } ?? 0
        return (raw >> 8) & 0xff
    }

    /// Woken by the exit (a pidfd), then reaped here.
    private func waitForExit(within timeout: Duration) -> Bool {
        guard isRunning else { return true }
        guard ChildExit.wait(pid, within: timeout) else { return false }
        return !isRunning
    }
}
