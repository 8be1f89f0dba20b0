import Foundation
import Synchronization

/// SIGINT/SIGTERM as an async stream: a plain `signal(2)` handler writes the signal number to a pipe and a
/// reader thread yields it.
///
/// Why not `DispatchSource.makeSignalSource` with `SIG_IGN`: on Linux, libdispatch reads signals from a
/// `signalfd`, which only sees a signal while it is pending. After `dispatch_main()` the main thread waits
/// in `sigsuspend` with every signal unblocked, so the kernel may hand SIGTERM to that thread, whose
/// disposition (ignore, or dispatch's no-op handler) swallows it, and the daemon never learns it was asked
/// to stop (seen under load: an idle daemon surviving SIGTERM). A real handler runs on whichever thread
/// takes the signal, so none is lost. A second signal exits at once (`128 + signal`), unsaved work
/// being only what a reply was not yet sent for.
enum ShutdownSignals {
    /// Installs the handlers (once; later calls return a stream that never yields).
    static func install() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        var fds: [Int32] = [-1, -1]
        guard installed.exchange(true, ordering: .acquiringAndReleasing) == false, pipe(&fds) == 0 else {
            return stream
        }
        writeEnd.store(fds[1], ordering: .releasing)
        let readEnd = fds[0]
        let reader = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    continuation.yield(byte == UInt8(SIGINT) ? "SIGINT" : "SIGTERM")
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    continuation.finish()
                    return
                }
            }
        }
        reader.name = "navsessiond signals"
        reader.start()
        signal(SIGINT, onShutdownSignal)
        signal(SIGTERM, onShutdownSignal)
        return stream
    }

    /// Whether ``install()`` ran.
    static let installed = Atomic<Bool>(false)
    /// The pipe's write end, read by the handler (an atomic load is async-signal-safe).
    static let writeEnd = Atomic<Int32>(-1)
    /// Signals received so far; the second one exits immediately.
    static let received = Atomic<Int>(0)
}

/// The signal handler: async-signal-safe calls only (atomics, `write`, `_exit`).
private func onShutdownSignal(_ number: Int32) {
    let previous = ShutdownSignals.received.wrappingAdd(1, ordering: .relaxed).oldValue
    if previous > 0 { _exit(128 + number) }
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(ShutdownSignals.writeEnd.load(ordering: .acquiring), &byte, 1)
}

/// A hard deadline for shutting down: once armed, the process exits after `seconds` even if closing the
/// bus connection or saving hangs, so a daemon asked to stop never lingers.
enum ShutdownDeadline {
    /// Starts the countdown on its own thread; exits with status 70 (EX_SOFTWARE) when it runs out.
    static func arm(seconds: UInt32, reason: String) {
        let thread = Thread {
            sleep(seconds)
            FileHandle.standardError.write(
                Data("navsessiond: shutdown (\(reason)) did not finish within \(seconds) s; exiting\n".utf8))
            _exit(70)
        }
        thread.name = "navsessiond shutdown deadline"
        thread.start()
    }
}
