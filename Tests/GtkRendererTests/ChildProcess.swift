import Foundation
import Synchronization

/// A child process spawned with a clean signal state (empty mask, default SIGTERM/SIGINT/SIGHUP): tasks on
/// the cooperative pool may have SIGTERM blocked, and Foundation's Process passes that on, so Xvfb and
/// Python would ignore SIGTERM (PrivateBusDaemon.spawn does the same for dbus-daemon).
final class ChildProcess: Sendable {
    let pid: pid_t
    private let status = Mutex<Int32?>(nil)

    private init(pid: pid_t) { self.pid = pid }

    /// Spawns `arguments[0]` (looked up in PATH) with `environment`; stdin is /dev/null.
    static func spawn(_ arguments: [String], environment: [String: String], stdout: Int32, stderr: Int32) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw HarnessError("cannot spawn \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return ChildProcess(pid: pid)
    }

    var isRunning: Bool {
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

    /// SIGTERM, then SIGKILL after `deadline`; returns whether SIGTERM sufficed. Checks every 10 ms.
    @discardableResult
    func terminate(within deadline: Duration) -> Bool {
        guard isRunning else { return true }
        kill(pid, SIGTERM)
        if waitForExit(within: deadline) { return true }
        kill(pid, SIGKILL)
        _ = waitForExit(within: .seconds(5))
        return false
    }

    /// The exit status (WEXITSTATUS) once the process exits within `timeout`, else nil (and it is killed).
    func exitStatus(within timeout: Duration) async -> Int32? {
        let end = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= end {
                terminate(within: .seconds(2))
                return nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        let raw = status.withLock { $0 } ?? 0
        return (raw >> 8) & 0xff
    }

    private func waitForExit(within timeout: Duration) -> Bool {
        let end = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now >= end { return false }
            usleep(10_000)
        }
        return true
    }
}
