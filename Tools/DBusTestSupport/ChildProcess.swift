internal import ProcessSupport
import Foundation
import Synchronization

/// A child process, and the one way the tests and their fixtures start, signal and wait for one.
///
/// Spawned with a clean signal state (empty mask, default SIGTERM/SIGINT/SIGHUP/SIGPIPE) by the package's one
/// spawn (``ChildSpawn``): tasks on the cooperative pool may have SIGTERM blocked, and Foundation's `Process`
/// passes that on, so a daemon, Xvfb or Python would ignore SIGTERM.
///
/// Every child has a reaper: a thread of its own that sleeps in `waitid` until the child exits, then reaps it
/// and wakes whoever awaits the exit. So waiting never blocks a thread of the cooperative pool (the suite
/// runs on a 2-CPU pool of 2 threads, and one blocked wait starves every test that suspends), the status is
/// known the moment the kernel knows it (Foundation's `Process` learns of an exit only when every holder of
/// its socket pair, the child's own children included, has closed it), and a pid is never signalled after it
/// was reaped (the reaper reaps under the same lock a signal is sent under, so a recycled pid is never hit).
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Exit: Sendable, Hashable, CustomStringConvertible {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal killed it.
        case signalled(Int32)

        /// The status a shell would report: the exit status, or 128 + the signal number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }

        /// "exited with status N" or "killed by signal N".
        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    private struct State {
        var exit: Exit?
        var waiters: [Int: CheckedContinuation<Exit?, Never>] = [:]
        var nextWaiter = 0
    }

    /// The process id.
    public let pid: pid_t
    /// What it is, for messages (the program's name).
    public let name: String
    private let state = Mutex(State())

    private init(pid: pid_t, name: String) {
        self.pid = pid
        self.name = name
    }

    // MARK: Starting

    /// Spawns `arguments[0]` (looked up in `PATH` when it has no `/`) with exactly `environment`.
    /// - Parameters:
    ///   - stdin: a descriptor for its standard input; nil = /dev/null.
    ///   - stdout: a descriptor for its standard output (the caller keeps and closes its own copy).
    ///   - stderr: a descriptor for its standard error.
    public static func spawn(
        _ arguments: [String], environment: [String: String], stdin: Int32? = nil, stdout: Int32, stderr: Int32
    ) throws -> ChildProcess {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let pid = try ChildSpawn.spawn(
            arguments, environment: environment.map { "\($0.key)=\($0.value)" }.sorted(), stdin: stdin ?? null,
            stdout: stdout, stderr: stderr)
        let child = ChildProcess(pid: pid, name: URL(fileURLWithPath: arguments.first ?? "?").lastPathComponent)
        child.startReaper()
        return child
    }

    /// Starts the thread that reaps this child (see the type's documentation).
    private func startReaper() {
        // The thread holds the child strongly: a child dropped by everyone else is still reaped (and so this
        // type has no deinit to kill a forgotten child; its owners, such as the daemon fixture, do that).
        let started = DetachedThread.start(name: "reap \(pid)") { self.reap() }
        if !started { reap() }
    }

    /// Sleeps until the child has exited, reaps it under the lock signals are sent under, wakes the waiters.
    private func reap() {
        var info = siginfo_t()
        // WNOWAIT: learn of the exit without reaping, so the pid stays ours until the lock below is held.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { break }
        }
        let waiters = state.withLock { state in
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, 0)
            let exit: Exit = reaped == pid && (raw & 0x7f) != 0 ? .signalled(raw & 0x7f) : .exited((raw >> 8) & 0xff)
            state.exit = exit
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        let exit = state.withLock { $0.exit }
        for waiter in waiters { waiter.resume(returning: exit) }
    }

    // MARK: Observing

    /// How it ended, or nil while it runs.
    public var exit: Exit? { state.withLock { $0.exit } }

    /// Whether it has not exited yet.
    public var isRunning: Bool { exit == nil }

    /// How it ended, once it ends within `timeout`; nil if it still runs then. Never blocks a thread: the
    /// reaper wakes this wait, and the timeout is a sleeping task.
    public func exit(within timeout: Duration) async -> Exit? {
        if let exit { return exit }
        return await AsyncStream<Exit>.racing([{ await self.untilExit() }]).first(within: timeout) ?? exit
    }

    /// Returns the exit once it happens, or nil when the task is cancelled first.
    private func untilExit() async -> Exit? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Exit?, Never>) in
                let now: Exit?? = state.withLock { state in
                    if let exit = state.exit { return .some(exit) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }

    /// What the kernel says of the process, for a message about a child that did not do what it should:
    /// whether it exited, else its state and signal masks from `/proc/<pid>/status` (a process that ignores
    /// SIGTERM shows it in `SigBlk` or `SigIgn`; one that is stopped or in the kernel shows it in `State`).
    public var diagnosis: String {
        if let exit { return "\(name) (pid \(pid)) has \(exit)" }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let wanted = ["State", "SigQ", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt", "Threads"]
        let lines = status.split(separator: "\n").filter { line in
            wanted.contains { line.hasPrefix($0 + ":") }
        }
        return "\(name) (pid \(pid)) has not exited; /proc/\(pid)/status: "
            + lines.map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: ", ")
    }

    // MARK: Signalling

    /// Sends `signal` unless the process has already been reaped (so a recycled pid is never hit).
    public func signal(_ signal: Int32) {
        state.withLock { state in
            if state.exit == nil { kill(pid, signal) }
        }
    }

    /// Sends SIGTERM, waits up to `deadline`, then SIGKILLs and waits again.
    /// - Returns: whether SIGTERM alone ended it in time (true at once for a child that has exited).
    @discardableResult
    public func terminate(within deadline: Duration) async -> Bool {
        guard isRunning else { return true }
        signal(SIGTERM)
        if await exit(within: deadline) != nil { return true }
        signal(SIGKILL)
        _ = await exit(within: .seconds(10))
        return false
    }
}
