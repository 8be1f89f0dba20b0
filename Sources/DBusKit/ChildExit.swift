internal import CDBusShims

import Glibc

/// Waiting for a child process to exit, woken by the exit itself (a pidfd), never by a timer.
///
/// For the code that spawns processes — private buses here, and the test support built on it.
package enum ChildExit {
    /// Blocks until process `pid` has exited or `timeout` has passed; returns whether it exited. The process is
    /// not reaped: its parent's `waitpid` (or Foundation's `Process`) still collects its status.
    package static func wait(_ pid: Int32, within timeout: Duration) -> Bool {
        let fd = CDBusShims_pidfd_open(pid)
        guard fd >= 0 else {
            // ESRCH: already reaped. Anything else (no pidfd support): ask whether the pid still exists.
            return errno == ESRCH || kill(pid, 0) != 0
        }
        defer { close(fd) }
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return kill(pid, 0) != 0 }
        }
    }
}
