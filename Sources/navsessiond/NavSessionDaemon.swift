import ArgumentParser
import DBusKit
import Dispatch
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavSessionService
import NavigationCore
import NavigationSession
import ProcessSupport

/// `navsessiond`: serves one application's navigation session on D-Bus until SIGINT/SIGTERM, a
/// `quit` action, a `--replace` handover to another daemon, or the loss of its name or of the bus (errors).
struct NavSessionDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navsessiond",
        abstract: "Serves a NavSession application (org.navsession.Session1 / Window1) on D-Bus.",
        version: NavSessionRelease.version)

    @Option(help: ArgumentHelp(
        "The application manifest (JSON). Default: the one installed for --name, else the built-in demo.",
        discussion: """
            Without --manifest, --name ID serves $XDG_DATA_HOME/navsession/applications/ID.json, else the first \
            <dir>/navsession/applications/ID.json of $XDG_DATA_DIRS (Docs/applications.md); exit status 78 when \
            there is none. org.navsession.Demo is the built-in demo.
            """))
    var manifest: String?

    @Flag(help: "Serve the built-in demo manifest, also under another --name.")
    var demo = false

    @Option(help: ArgumentHelp(
        "Validate a manifest file and exit: 0 valid, 65 invalid (FILE:LINE:COLUMN: error: … on stderr), 66 unreadable.",
        valueName: "file"))
    var checkManifest: String?

    @Option(help: """
        Which bus to use: session (the bus that activated us, when DBUS_STARTER_ADDRESS is set), system, \
        or a D-Bus address such as unix:path=/tmp/bus.
        """)
    var bus: String = "session"

    @Option(help: "The bus name to own. Default: the manifest's application id.")
    var name: String?

    @Option(help: """
        Where the session journal lives. Default: $XDG_STATE_HOME/navsession/<id> (~/.local/state/navsession/<id>); \
        with --private-bus, nowhere (in memory).
        """)
    var stateDir: String?

    @Flag(help: """
        Keep the session in memory only: nothing is read from or written to disk (tests, fixtures). \
        The default with --private-bus unless --state-dir is given.
        """)
    var ephemeral = false

    @Flag(help: "Take the name over from a running daemon (which saves and exits).")
    var replace = false

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Flag(help: ArgumentHelp(
        "Start a private dbus-daemon (a throwaway session bus, configured by the daemon itself) and serve on it.",
        discussion: "Prints DBUS_SESSION_BUS_ADDRESS=… on stdout once the daemon owns its name there."))
    var privateBus = false

    @Option(help: ArgumentHelp(
        "A dbus-daemon configuration file for --private-bus instead of the built-in one.",
        discussion: "The built-in configuration is dbus/test-session.conf of the source tree, compiled in: an installed daemon needs no file for --private-bus."))
    var config: String?

    @Flag(help: "Print the built-in demo manifest and exit.")
    var printDemoManifest = false

    // Instances, restore reasons, the SaveRestore portal.
    @Option(help: """
        Keep the state of this instance (1-64 letters, digits, '-', '_'): <state directory>@ID. \
        Default: $NAVSESSION_INSTANCE, else the portal's instance id, else the application's own state.
        """)
    var instance: String?

    @Option(help: "Why the daemon starts: pristine, launch, recover or restore. Default: the portal's, else from the state directory.")
    var restoreReason: String?

    @Option(help: "auto: register with org.freedesktop.portal.SaveRestore when the desktop portal runs; off: never.")
    var saveRestore: String = "auto"

    /// Fails with `navsessiond: <message>` on stderr and exit `status` (``ExitStatus``; default 1).
    func fail(_ message: String, status: Int32 = ExitStatus.failure) -> ExitCode {
        Self.writeError("navsessiond: \(message)")
        return ExitCode(status)
    }

    /// Writes one line to stderr.
    static func writeError(_ line: String) {
        StandardStream.write("\(line)\n", to: STDERR_FILENO)
    }

    /// The state directory of `instance`: ``stateDirectory(for:)`` with `@<instance>` appended.
    func stateDirectory(for id: String, instance: String?) -> String {
        let base = stateDirectory(for: id)
        return instance.map { InstanceID.directory(base, instance: $0) } ?? base
    }

    /// The state directory: the option, else `$XDG_STATE_HOME` (or `~/.local/state`)/navsession/<id>.
    func stateDirectory(for id: String) -> String {
        if let stateDir { return stateDir }
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.local/state"
        // A trailing slash of the base is not doubled (as NSString's appendingPathComponent did).
        return (base.hasSuffix("/") ? base : base + "/") + "navsession/" + id
    }

    /// Serves, then exits the process from the serving task itself (status 0, or the error's), so the
    /// exit does not depend on hopping back to the main actor.
    func runAndExit() async -> Never {
        do {
            try await serve()
        } catch {
            Self.exit(withError: error)
        }
        Self.exit()
    }

    /// Serves the daemon's whole life: ``start(privateBusDaemon:)``, then ``serveUntilStopped(_:watchers:)``, then
    /// ``stop(_:_:watchers:)`` (NavSessionDaemon+Lifecycle.swift); or only prints the demo manifest, or only
    /// checks a manifest.
    func serve() async throws {
        if printDemoManifest {
            print(Manifest.demoJSON)
            return
        }
        if let checkManifest {
            let status = self.checkManifest(checkManifest)
            if status != .success { throw status }
            return
        }
        // Set by start as soon as the private bus runs, so it is stopped on every way out, a failed start included.
        var daemon: PrivateBusDaemon?
        defer { daemon?.stop() }
        let running = try await start(privateBusDaemon: &daemon)
        // The group spans serving and stopping: the watchers that wait for the connection to close end only once
        // stop has closed it, and the group cannot end before its tasks do.
        let failure = await withTaskGroup(of: String.self, returning: (any Error)?.self) { watchers in
            let reason = await serveUntilStopped(running, watchers: &watchers)
            do {
                try await stop(running, reason, watchers: &watchers)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Loads the session from `directory` (taking its lock) or in memory; one line and exit status 1 when it
    /// cannot, which names the lock's holder when another daemon writes the directory.
    func load(_ application: Manifest, _ directory: String?, _ start: StartOptions, logger: Logger) throws -> SessionService {
        do {
            return try SessionService(
                manifest: application, stateDirectory: directory, logger: logger, restoreReason: start.reason,
                instance: start.instance)
        } catch {
            throw fail(Self.describe(error))
        }
    }

    /// ``load(_:_:logger:)`` once the daemon we replaced has written its last snapshot and let go of the state
    /// directory's lock (it holds the lock until it exits), so every change it acknowledged is loaded and no
    /// version is given out twice. Waits at most ``handoverTimeout``, off the threads that serve the bus.
    func loadAfterHandover(
        _ application: Manifest, _ directory: String?, _ start: StartOptions, logger: Logger
    ) async throws -> SessionService {
        let deadline = ContinuousClock.now + Self.handoverTimeout
        var waiting = false
        while true {
            do {
                return try SessionService(
                    manifest: application, stateDirectory: directory, logger: logger, restoreReason: start.reason,
                    instance: start.instance)
            } catch SessionError.stateDirectoryLocked(let path, let holder) where ContinuousClock.now < deadline {
                if !waiting {
                    logger.info("waiting for the daemon we replaced to save and let go of \(path)", metadata: ["holder": "\(holder.map(String.init) ?? "?")"])
                    waiting = true
                }
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                throw fail(Self.describe(error))
            }
        }
    }

    /// How long a `--replace` waits for the replaced daemon to let go of the state directory.
    static let handoverTimeout: Duration = .seconds(30)

    /// The one line for a startup failure: the holder's command line when another process has the directory.
    static func describe(_ error: any Error) -> String {
        if case SessionError.stateDirectoryLocked(let path, let holder?) = error {
            let commandLine = NameOwner.commandLine(of: holder).joined(separator: " ").prefix(200)
            return "the state directory \(path) is in use by pid \(holder)" + (commandLine.isEmpty ? "" : " (\(commandLine))")
                + ", which holds its lock; one daemon writes a state directory at a time"
        }
        return ErrorMapping.busError(for: error).message
    }

    /// The exit status when another process (not a `navsessiond --replace`) took the name (Docs/dbus-api.md,
    /// "Lifetime").
    static let nameTakenStatus = ExitStatus.nameTaken
}
