import Foundation
import Synchronization

/// Every process the coordinator starts (daemon instances, clients), so an interrupted run
/// (SIGINT/SIGTERM/SIGHUP) kills them instead of leaving them behind.
final class Children: Sendable {
    static let shared = Children()
    static let capacity = 256

    private let count = Mutex(0)

    /// Pids for the signal handler, which may not lock: a fixed buffer written under `count`'s lock.
    nonisolated(unsafe) private static let signalSafePIDs: UnsafeMutablePointer<pid_t> = {
        let buffer = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()

    func register(_ pid: pid_t) {
        count.withLock { count in
            Self.signalSafePIDs[count % Self.capacity] = pid
            count += 1
        }
    }

    /// Installs handlers that SIGKILL every registered child and exit.
    static func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { received in
                // Async-signal-safe only: kill(2) and _exit(2).
                for index in 0..<Children.capacity {
                    let pid = Children.signalSafePIDs[index]
                    if pid > 0 { kill(pid, SIGKILL) }
                }
                _exit(128 + received)
            }
        }
    }
}
