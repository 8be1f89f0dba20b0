import Foundation
import Synchronization

/// Every long-lived process the benchmark starts (bus, echo service, daemon), so that each exit
/// path, including Ctrl-C, can stop them: a leaked `dbus-daemon` would outlive the run.
final class Children: Sendable {
    static let shared = Children()

    /// Maximum number of long-lived children; the benchmark starts up to eight (bus, echo, floor, daemon, the window-count daemon, and one at a time under callgrind).
    static let capacity = 16

    /// Pids in start order, guarded by the mutex for ordinary code.
    private let started = Mutex<[pid_t]>([])

    /// A copy of the pids that the signal handler reads. A signal handler may not take locks,
    /// so this is a fixed buffer of plain ints written only by the main thread (`register`).
    /// A stale or torn read costs at most one missed kill on the emergency path.
    nonisolated(unsafe) private static let signalSafePIDs: UnsafeMutablePointer<pid_t> = {
        let buffer = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()

    /// Records a started child.
    func register(_ pid: pid_t) {
        started.withLock { pids in
            if pids.count < Self.capacity {
                Self.signalSafePIDs[pids.count] = pid
            }
            pids.append(pid)
        }
    }

    /// Stops every registered child, newest first (daemon and echo before the bus they talk to):
    /// SIGTERM, then SIGKILL for any that is still there after `grace` seconds.
    func stopAll(grace: TimeInterval = 2) {
        let pids = started.withLock { pids in
            defer {
                pids.removeAll()
                for index in 0..<Self.capacity { Self.signalSafePIDs[index] = 0 }
            }
            return pids
        }
        for pid in pids.reversed() { Self.stop(pid, grace: grace) }
    }

    /// Stops one child: SIGTERM, then SIGKILL if it is still there after `grace` seconds.
    static func stop(_ pid: pid_t, grace: TimeInterval = 2) {
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        // Foundation's Process reaps its children on its own thread, so there is nothing to wait
        // on here: poll until the pid is gone (a zombie counts as gone).
        while CPUTime.isRunning(pid), Date() < deadline {
            usleep(10_000)
        }
        if CPUTime.isRunning(pid) { kill(pid, SIGKILL) }
    }

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP that kill the children and exit.
    /// A real handler (not SIG_IGN) matters: ignored signals stay ignored across exec, so the
    /// children would inherit deafness to SIGTERM.
    static func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                // Async-signal-safe only: kill(2) and _exit(2), nothing that allocates or locks.
                for index in 0..<Children.capacity {
                    let pid = Children.signalSafePIDs[index]
                    if pid > 0 { kill(pid, SIGKILL) }
                }
                _exit(128 + received)
            }
        }
    }
}
