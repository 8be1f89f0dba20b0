import DBusKit
import Glibc
import ProcessSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A hard deadline for shutting down: once armed, the process exits after `seconds` even if closing the
/// bus connection or saving hangs, so a daemon asked to stop never lingers.
enum ShutdownDeadline {
    /// Starts the countdown on its own thread; exits with status 70 (EX_SOFTWARE) when it runs out.
    static func arm(seconds: UInt32, reason: String) {
        // Without a thread (none left) there is no deadline; the shutdown itself still runs.
        DetachedThread.start(name: "shutdown deadline") {
            sleep(seconds)
            StandardStream.write(
                "navsessiond: shutdown (\(reason)) did not finish within \(seconds) s; exiting\n", to: STDERR_FILENO)
            _exit(ExitStatus.shutdownDeadline)
        }
    }
}
