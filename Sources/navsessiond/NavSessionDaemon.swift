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

    // Issue 34, part S: instances, restore reasons, the SaveRestore portal.
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

    /// The state directory of `instance`: ``stateDirectory(for:)`` with `@<instance>` appended (issue 34, part S).
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

    /// Loads, connects, exports, takes the name and serves until told to stop.
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
        // First, so a SIGTERM during startup (loading, restoring, connecting) is not lost.
        let stop = TerminationSignals.install(exitOnRepeat: true)
        guard let level = Logger.Level(rawValue: logLevel) else { throw fail("unknown log level '\(logLevel)'", status: ExitStatus.usage) }
        var logger = Logger(label: "navsessiond") { label in
            RepeatLimitedLogHandler(wrapping: StreamLogHandler.standardError(label: label))
        }
        logger.logLevel = level
        let application = try applicationManifest()
        let busName: BusName
        do {
            busName = try BusName(name ?? application.applicationID)
        } catch {
            throw fail("invalid bus name '\(name ?? application.applicationID)': \(error)", status: ExitStatus.usage)
        }
        if ephemeral, stateDir != nil { throw fail("--ephemeral and --state-dir exclude each other", status: ExitStatus.usage) }
        var start = try startOptions()
        // A private bus is a throwaway: sharing the desktop's saved session with it would restore someone
        // else's windows into a demo, and write the demo's into theirs.
        let inMemory = ephemeral || (privateBus && stateDir == nil)
        // The SaveRestore portal is asked first (issue 34, part S) when it can matter: its instance id and reason
        // decide which state is loaded and what of it comes back. That needs the bus before the state.
        let askPortal = saveRestore == "auto" && !inMemory && !privateBus
        var directory = inMemory ? nil : stateDirectory(for: application.applicationID, instance: start.instance)
        // Without --replace (and the portal) the state directory's lock comes first: a second daemon on the same
        // directory stops here, before it touches the bus. With --replace the name comes first (below), so no change
        // reaches the old daemon after it has saved; the lock is then taken once the old daemon has written everything.
        var service = replace || askPortal ? nil : try load(application, directory, start, logger: logger)
        if service != nil { logger.info("session state: \(directory ?? "in memory only (nothing is read or written)")") }
        var daemon: PrivateBusDaemon?
        let address: BusAddress
        if privateBus {
            let started = try config.map { try PrivateBusDaemon.start(configFile: $0) }
                ?? PrivateBusDaemon.start(configuration: PrivateBusDaemon.sessionConfiguration)
            daemon = started
            address = .address(started.address)
        } else {
            switch bus {
            case "session":
                // Started by bus activation: the bus that started us is the one to serve (D-Bus spec,
                // "Message Bus Starting Services"), even where DBUS_SESSION_BUS_ADDRESS names another.
                let starter = ProcessInfo.processInfo.environment["DBUS_STARTER_ADDRESS"] ?? ""
                address = starter.isEmpty ? .session : .address(starter)
            case "system": address = .system
            default: address = .address(bus)
            }
        }
        defer { daemon?.stop() }

        let connection: Bus
        do {
            connection = try await Bus.connect(address)
        } catch {
            throw fail("cannot connect to the \(bus) bus: \(error)")
        }
        var portal: SaveRestorePortal.Registration?
        if let service {
            try await service.export(on: connection)
        } else {
            // Calls that reach us before the state is loaded wait for it instead of finding no objects.
            await connection.holdIncomingCalls()
        }
        // Subscribed before the name is taken, so no SaveHint or Quit sent once we serve is missed.
        var portalSignals: (saveHints: AsyncStream<Signal>, quits: AsyncStream<Signal>)?
        if askPortal, let registration = await SaveRestorePortal.register(on: connection, logger: logger) {
            portal = registration
            do {
                portalSignals = (
                    try await SaveRestorePortal.signals("SaveHint", registration.sessionHandle, on: connection),
                    try await SaveRestorePortal.signals("Quit", registration.sessionHandle, on: connection)
                )
            } catch {
                logger.error("cannot subscribe to the SaveRestore portal's signals: \(error)")
            }
            let instance = start.instance ?? registration.instanceID
            directory = stateDirectory(for: application.applicationID, instance: instance)
            start = StartOptions(instance: instance, reason: start.reason ?? registration.reason)
            discard(registration, application: application, logger: logger)
            if !registration.discardInstanceIDs.isEmpty {
                await SaveRestorePortal.call(
                    "DiscardedInstanceIds", registration.sessionHandle,
                    [.array(.string, registration.discardInstanceIDs.map(Value.string))], on: connection, logger: logger)
            }
        }
        if askPortal, !replace {
            logger.info("session state: \(directory ?? "in memory only (nothing is read or written)")")
            let loaded: SessionService
            do {
                loaded = try load(application, directory, start, logger: logger)
            } catch {
                await connection.close()
                throw error
            }
            try await loaded.export(on: connection)
            await connection.releaseIncomingCalls()
            service = loaded
        }
        let options: RequestNameOptions = replace ? [.doNotQueue, .allowReplacement, .replaceExisting] : [.doNotQueue, .allowReplacement]
        let reply = try await connection.requestName(busName, options: options)
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            ShutdownDeadline.arm(seconds: 5, reason: "name already owned")
            let holder = await NameOwner.of(busName, on: connection).map { " by \($0)" } ?? " by another process"
            await connection.close()
            throw fail("\(busName) is already owned\(holder) (use --replace to take it over)", status: ExitStatus.nameOwned)
        }
        if service == nil {
            logger.info("session state: \(directory ?? "in memory only (nothing is read or written)")")
            let loaded = try await loadAfterHandover(application, directory, start, logger: logger)
            try await loaded.export(on: connection)
            await connection.releaseIncomingCalls()
            service = loaded
        }
        guard let service else { return }
        let uniqueName = await connection.uniqueName?.rawValue ?? "?"
        logger.info("serving \(busName) as \(uniqueName)")
        if let daemon {
            // Printed once the name is owned, so a script that waits for this line (the README's tour) can call
            // the daemon at once. stdout carries only the address (scripts read it with `export $(…)`); the
            // hint goes to stderr.
            StandardStream.write("DBUS_SESSION_BUS_ADDRESS=\(daemon.address)\n", to: STDOUT_FILENO)
            StandardStream.write(FirstContactHint.text(
                address: daemon.address, busName: busName.rawValue, scene: application.defaultSceneName,
                executable: FirstContactHint.runningExecutable(), path: ProcessInfo.processInfo.environment["PATH"],
                fileExists: { FileManager.default.fileExists(atPath: $0) }), to: STDERR_FILENO)
        }
        var lostBus = false
        var nameTaken = false

        await withTaskGroup(of: String.self) { group in
            group.addTask {
                for await signal in stop { return TerminationSignals.name(of: signal) }
                return "signal stream ended"
            }
            group.addTask {
                await connection.disconnected()
                return "bus disconnected"
            }
            group.addTask {
                for await event in connection.nameEvents where event == .lost(busName) { return "name lost" }
                return "name events ended"
            }
            group.addTask {
                for await _ in service.quitRequested { return "quit action" }
                return "quit stream ended"
            }
            if let portal, let portalSignals {
                // SaveHint: everything durable, then SaveHintResponse (within the portal's 3 s). Quit: stop as for
                // SIGTERM (a snapshot, then exit 0).
                let handle = portal.sessionHandle
                let logger = logger
                group.addTask {
                    for await hint in portalSignals.saveHints where hint.arguments.first?.objectPath == handle {
                        do {
                            try service.checkpoint()
                            logger.info("made everything durable for the portal's SaveHint")
                        } catch {
                            logger.error("could not make the session durable for the portal's SaveHint: \(error)")
                        }
                        await SaveRestorePortal.call("SaveHintResponse", handle, on: connection, logger: logger)
                    }
                    // Only a closed connection ends the stream: the task that waits for it says so.
                    await connection.disconnected()
                    return "bus disconnected"
                }
                group.addTask {
                    for await quit in portalSignals.quits where quit.arguments.first?.objectPath == handle {
                        return "portal Quit"
                    }
                    // Only a closed connection ends the stream: the task that waits for it says so.
                    await connection.disconnected()
                    return "bus disconnected"
                }
            }
            var reason = await group.next() ?? "unknown"
            // Losing the bus is not a request to stop: log it as an error and exit non-zero so that a
            // supervisor (systemd Restart=on-failure, D-Bus activation) brings the service back.
            lostBus = reason == "bus disconnected" || reason == "name events ended"
            if lostBus {
                logger.error("lost the bus connection (\(reason)); exiting with status 1")
            } else if reason == "name lost" {
                // Only a --replace handover of our own is a request to stop; anyone else taking the name is a
                // fault a supervisor must hear of (and restart us for).
                let taker = await NameOwner.of(busName, on: connection)
                if let taker, taker.isReplacingDaemon {
                    reason = "name handed over to \(taker)"
                    logger.info("shutting down (\(reason))")
                } else {
                    nameTaken = true
                    logger.error(
                        "lost \(busName) to \(taker.map(String.init(describing:)) ?? "another process"), which is not a navsessiond --replace; exiting with status \(Self.nameTakenStatus)")
                }
            } else {
                logger.info("shutting down (\(reason))")
            }
            ShutdownDeadline.arm(seconds: 5, reason: reason)
            if let portal, !lostBus {
                // Saved first, so the portal's Close (a clean stop, as it counts) follows a durable state.
                do {
                    try service.checkpoint()
                } catch {
                    logger.error("could not write the session snapshot before closing the portal session: \(error)")
                }
                await SaveRestorePortal.close(portal.sessionHandle, on: connection, logger: logger)
            }
            // Closing the connection releases the name; no ReleaseName round trip that could stall.
            await connection.close()
            group.cancelAll()
        }
        do {
            try service.save()
        } catch {
            logger.error("could not write the session snapshot at shutdown; the journal keeps every change: \(error)")
        }
        if lostBus { throw ExitCode.failure }
        if nameTaken { throw ExitCode(Self.nameTakenStatus) }
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
