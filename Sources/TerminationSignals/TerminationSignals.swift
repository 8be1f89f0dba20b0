#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// SIGINT/SIGTERM (or other signals) delivered as an `AsyncStream`, reliably.
///
/// Why not `DispatchSource.makeSignalSource` with `SIG_IGN`: on Linux, libdispatch reads signals through a
/// `signalfd`, which only sees a signal while every thread blocks it. Threads started before the source
/// (a D-Bus connection thread, the cooperative pool) do not, so the kernel may hand the signal to one of
/// them, where `SIG_IGN` drops it — the process then never notices SIGTERM (seen as rare hangs in tests
/// under load). Ignored signals also stay ignored across `exec`, so children would inherit deafness.
///
/// Instead a real handler writes the signal number into a pipe (`write(2)` is async-signal-safe), and a
/// dedicated thread reads the pipe and yields. Whichever thread the kernel picks, nothing is lost, and
/// `exec` resets the handler to the default in children.
public enum TerminationSignals {
    /// Installs handlers for `signals` and returns the stream of deliveries, one element per delivery.
    ///
    /// Call once per process; a second call replaces the handlers and the stream of the first. If the pipe
    /// cannot be created the stream is empty and the signals keep their default action (terminate).
    public static func install(_ signals: [Int32] = [SIGINT, SIGTERM]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            continuation.finish()
            return stream
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        signalPipe = writeEnd
        for number in signals {
            signal(number) { received in
                // Async-signal-safe only: one write(2) of one byte; a full pipe drops the duplicate.
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(TerminationSignals.signalPipe, &byte, 1)
            }
        }
        let reader = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    continuation.yield(Int32(byte))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            continuation.finish()
        }
        reader.name = "TerminationSignals"
        reader.start()
        return stream
    }

    // Written once in `install` before any handler can run, then only read by the handler.
    nonisolated(unsafe) static var signalPipe: Int32 = -1
}
