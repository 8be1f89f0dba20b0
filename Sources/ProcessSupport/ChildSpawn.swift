internal import CProcessShims
import FoundationEssentials
import Glibc

/// The one way this package starts a child process: `posix_spawnp` with a clean signal state and only the
/// standard descriptors.
///
/// Clean signal state: an empty mask, and SIGTERM, SIGINT, SIGPIPE and SIGHUP at their defaults. Tasks on the
/// cooperative pool may have SIGTERM blocked, and a child inheriting that mask (as Foundation's `Process`
/// passes it on) would ignore SIGTERM. Descriptors above 2 are not inherited: other code in this process may
/// hold fds without CLOEXEC (pipes to other children, sockets), and a long-lived child inheriting them would
/// keep those open, e.g. hiding EOF from a pipe's reader.
package enum ChildSpawn {
    /// Why a spawn failed: `posix_spawnp`'s error.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The program.
        package var program: String
        /// `errno`'s text.
        package var reason: String
        package var description: String { "cannot spawn \(program): \(reason)" }
    }

    /// Spawns `arguments[0]` (looked up in `PATH` when it has no `/`) with exactly `environment`
    /// (`NAME=value` entries).
    /// - Parameters:
    ///   - stderr: nil keeps this process's standard error.
    ///   - newProcessGroup: makes the child the leader of a process group of its own (to kill it with
    ///     everything it starts).
    package static func spawn(
        _ arguments: [String], environment: [String], stdin: Int32, stdout: Int32, stderr: Int32?,
        newProcessGroup: Bool = false
    ) throws(Failure) -> Int32 {
        guard let program = arguments.first else { throw Failure(program: "", reason: "no program") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
        CProcessShims_spawn_close_from(&actions, 3)
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
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: Int32 = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else { throw Failure(program: program, reason: String(cString: strerror(result))) }
        return pid
    }

    /// The current environment minus everything that could point a child at the user's real session
    /// (`DBUS_*`, `DISPLAY`), plus `extra`.
    package static func cleanEnvironment(adding extra: [String: String] = [:]) -> [String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("DBUS_") || key == "DISPLAY" {
            environment[key] = nil
        }
        environment.merge(extra) { _, new in new }
        return environment.map { "\($0.key)=\($0.value)" }
    }

    /// `pipe2(O_CLOEXEC)`: both ends close on exec, so no child spawned meanwhile by another thread inherits
    /// them. Returns nil with `errno` set on failure.
    package static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard CProcessShims_pipe_cloexec(&fds) == 0 else { return nil }
        return (fds[0], fds[1])
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
