#if canImport(Glibc)
import Glibc
#endif

import Synchronization

/// SIGINT/SIGTERM (or other signals) delivered as an `AsyncStream`, reliably.
///
/// Why not `DispatchSource.makeSignalSource` with `SIG_IGN`: on Linux, libdispatch reads signals through a
/// `signalfd`, which only sees a signal while it is pending. Threads that do not block it — a D-Bus
/// connection thread, the cooperative pool, the main thread parked in `sigsuspend` after `dispatch_main()`
/// — may take the signal instead, and the ignore disposition swallows it: the process never learns it was
/// asked to stop (seen as rare idle daemons surviving SIGTERM under load). Ignored signals also stay
/// ignored across `exec`, so children would inherit the deafness.
///
/// Instead a real handler writes the signal number into a pipe (`write(2)` is async-signal-safe), and a
/// dedicated thread reads the pipe and yields. Whichever thread the kernel picks, nothing is lost, and
/// `exec` resets the handler to the default in children.
public enum TerminationSignals {
    /// Installs handlers for `signals` and returns the stream of deliveries, one element per delivery.
    ///
    /// Install as early as possible: until this returns, the signals keep their default action (terminate).
    /// Only the first call installs anything; later calls return a stream that never yields. If the pipe
    /// cannot be created, the signals keep their default action and the stream never yields.
    ///
    /// - Parameters:
    ///   - signals: the signals to catch.
    ///   - exitOnRepeat: when true, a second delivery exits the process at once with status `128 + signal`
    ///     (the "press Ctrl-C twice" escape for a shutdown that takes too long).
    public static func install(_ signals: [Int32] = [SIGINT, SIGTERM], exitOnRepeat: Bool = false) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var fds: [Int32] = [-1, -1]
        guard installed.exchange(true, ordering: .acquiringAndReleasing) == false, pipe(&fds) == 0 else {
            return stream
        }
        let readEnd = fds[0]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        writeEnd.store(fds[1], ordering: .releasing)
        exitsOnRepeat.store(exitOnRepeat, ordering: .releasing)
        let started = DetachedThread.start(name: "TerminationSignals") {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    continuation.yield(Int32(byte))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    continuation.finish()
                    return
                }
            }
        }
        // No thread to read the pipe: leave the default action (terminate) in place rather than catch
        // signals no one would hear.
        guard started else { return stream }
        for number in signals { signal(number, onTerminationSignal) }
        return stream
    }

    /// A signal's conventional name ("SIGTERM"), or "signal N".
    public static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(number)"
        }
    }

    // Atomics: the handler may run on any thread, and an atomic load/add is async-signal-safe.
    static let installed = Atomic<Bool>(false)
    static let writeEnd = Atomic<Int32>(-1)
    static let exitsOnRepeat = Atomic<Bool>(false)
    static let received = Atomic<Int>(0)
}

/// The handler: async-signal-safe calls only (atomics, `write`, `_exit`).
private func onTerminationSignal(_ number: Int32) {
    // SIGHUP asks for a reload, not a stop: it never counts towards the repeat that exits.
    if number != SIGHUP {
        let previous = TerminationSignals.received.wrappingAdd(1, ordering: .relaxed).oldValue
        if previous > 0 && TerminationSignals.exitsOnRepeat.load(ordering: .acquiring) { _exit(128 + number) }
    }
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(TerminationSignals.writeEnd.load(ordering: .acquiring), &byte, 1)
}
