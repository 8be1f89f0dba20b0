import ArgumentParser
import DBusKit
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavSessionService
import NavigationSession
import ProcessSupport

/// The daemon's life in three phases, which ``NavSessionDaemon/serve()`` runs in turn: ``start(privateBusDaemon:)``,
/// ``serveUntilStopped(_:watchers:)`` and ``stop(_:_:watchers:)``.
extension NavSessionDaemon {
    /// What ``start(privateBusDaemon:)`` hands to the phases that serve and stop.
    struct Running {
        /// SIGINT/SIGTERM, caught since before anything else started.
        var terminationSignals: AsyncStream<Int32>
        var logger: Logger
        /// The name we own.
        var busName: BusName
        var connection: Bus
        /// The session, loaded and exported on ``connection``.
        var service: SessionService
        /// Our session with the SaveRestore portal, when it registered us.
        var portal: SaveRestorePortal.Registration?
        /// The portal's SaveHint and Quit signals, when ``portal`` is set and the subscriptions succeeded.
        var portalSignals: (saveHints: AsyncStream<Signal>, quits: AsyncStream<Signal>)?
    }

    /// Why the daemon stops, as ``serveUntilStopped(_:watchers:)`` decided (and logged) it.
    struct StopReason {
        /// What stopped us, for the shutdown deadline's message: "SIGTERM", "quit action", "name handed over to …".
        var description: String
        /// The bus connection was lost (not a request to stop): exit status 1.
        var lostBus: Bool
        /// Another process (not a `navsessiond --replace`) took the name: exit status ``nameTakenStatus``.
        var nameTaken: Bool
    }

    /// Starts: installs the termination signals (first of all), sets up logging, reads the manifest, validates
    /// the options, loads the state, connects, exports the session and owns the bus name; with `--private-bus`,
    /// prints the bus address (stdout) and the first-contact hint (stderr) once the name is owned.
    ///
    /// Fails with one line on stderr and the problem's exit status (``ExitStatus``).
    /// - Parameter daemon: set to the private bus daemon (`--private-bus`) as soon as it runs, so that the
    ///   caller stops it on every way out, a failed start included.
    func start(privateBusDaemon daemon: inout PrivateBusDaemon?) async throws -> Running {
        // First, so a SIGTERM during startup (loading, restoring, connecting) is not lost.
        // SIGHUP too: it reloads the manifest (``serveUntilStopped(_:watchers:)``).
        let terminationSignals = TerminationSignals.install([SIGINT, SIGTERM, SIGHUP], exitOnRepeat: true)
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
        // The SaveRestore portal is asked first when it can matter: its instance id and reason
        // decide which state is loaded and what of it comes back. That needs the bus before the state.
        let askPortal = saveRestore == "auto" && !inMemory && !privateBus
        var directory = inMemory ? nil : stateDirectory(for: application.applicationID, instance: start.instance)
        // Without --replace (and the portal) the state directory's lock comes first: a second daemon on the same
        // directory stops here, before it touches the bus. With --replace the name comes first (below), so no change
        // reaches the old daemon after it has saved; the lock is then taken once the old daemon has written everything.
        var service = replace || askPortal ? nil : try load(application, directory, start, logger: logger)
        if service != nil { logger.info("session state: \(directory ?? "in memory only (nothing is read or written)")") }
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
        let served: SessionService
        if let service {
            served = service
        } else {
            logger.info("session state: \(directory ?? "in memory only (nothing is read or written)")")
            let loaded = try await loadAfterHandover(application, directory, start, logger: logger)
            try await loaded.export(on: connection)
            await connection.releaseIncomingCalls()
            served = loaded
        }
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
        return Running(
            terminationSignals: terminationSignals, logger: logger, busName: busName, connection: connection,
            service: served, portal: portal, portalSignals: portalSignals)
    }

    /// Serves until told to stop: adds to `watchers` a task for each way a stop comes (a termination signal,
    /// the loss of the bus or of our name, a `quit` action, the portal's Quit; the portal's SaveHints are
    /// answered on the way), waits for the first, and decides and logs why the daemon stops.
    ///
    /// Returns with the watchers still running: those that wait for the connection to close end only once
    /// ``stop(_:_:watchers:)`` has closed it (cancelling a task does not end ``Bus/disconnected()``).
    func serveUntilStopped(
        _ running: Running, watchers group: inout TaskGroup<String>
    ) async -> StopReason {
        let terminationSignals = running.terminationSignals
        let connection = running.connection
        let busName = running.busName
        let service = running.service
        let logger = running.logger
        let manifestPath = servedManifestPath()
        group.addTask {
            for await signal in terminationSignals {
                guard signal == SIGHUP else { return TerminationSignals.name(of: signal) }
                // SIGHUP: the manifest file again, as Session1 ReloadManifest (the built-in demo has no file).
                guard let manifestPath else {
                    logger.notice("SIGHUP: the built-in demo has no manifest file to reload")
                    continue
                }
                do {
                    try await service.reloadManifest(fromFile: manifestPath, on: connection)
                    logger.notice("SIGHUP: reloaded the manifest", metadata: ["file": "\(manifestPath)"])
                } catch {
                    logger.error("SIGHUP: the manifest was not reloaded; nothing changed", metadata: ["file": "\(manifestPath)", "error": "\(error)"])
                }
            }
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
        if let portal = running.portal, let portalSignals = running.portalSignals {
            // SaveHint: everything durable, then SaveHintResponse (within the portal's 3 s). Quit: stop as for
            // SIGTERM (a snapshot, then exit 0).
            let handle = portal.sessionHandle
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
        var nameTaken = false
        // Losing the bus is not a request to stop: log it as an error and exit non-zero so that a
        // supervisor (systemd Restart=on-failure, D-Bus activation) brings the service back.
        let lostBus = reason == "bus disconnected" || reason == "name events ended"
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
        return StopReason(description: reason, lostBus: lostBus, nameTaken: nameTaken)
    }

    /// Stops within a deadline: checkpoints and closes the portal session (unless the bus is lost), closes the
    /// connection (which ends the `watchers` still running, and releases the name), waits for the watchers,
    /// then writes the session snapshot.
    ///
    /// Throws the exit status of a stop that is a fault: ``ExitStatus/failure`` when the bus was lost,
    /// ``nameTakenStatus`` when another process took the name.
    func stop(
        _ running: Running, _ reason: StopReason, watchers group: inout TaskGroup<String>
    ) async throws {
        let service = running.service
        let connection = running.connection
        let logger = running.logger
        ShutdownDeadline.arm(seconds: 5, reason: reason.description)
        if let portal = running.portal, !reason.lostBus {
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
        await group.waitForAll()
        do {
            try service.save()
        } catch {
            logger.error("could not write the session snapshot at shutdown; the journal keeps every change: \(error)")
        }
        if reason.lostBus { throw ExitCode.failure }
        if reason.nameTaken { throw ExitCode(Self.nameTakenStatus) }
    }
}
