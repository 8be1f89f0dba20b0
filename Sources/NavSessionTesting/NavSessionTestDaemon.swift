import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import Synchronization

/// A `navsessiond` on a private `dbus-daemon`, for tests: started with a manifest and a throwaway state
/// directory, handed back with a connected client, and stopped on every exit path.
///
/// Works from Swift Testing and XCTest alike (nothing here depends on either). Readiness is asked of the
/// bus — the daemon is ready when it owns its application id (`NameOwnerChanged`/`NameHasOwner`) — so no
/// test sleeps.
///
/// ```swift
/// @Test func detailOpens() async throws {
///     try await NavSessionTestDaemon.withDaemon { daemon in
///         let window = try await daemon.session.openWindow(scene: "main")
///         try await window.switchModel("main")
///         try await window.stackAppend("detail", params: ["id": "42"])
///         #expect(try await window.activeScreen == "detail")
///     }
/// }
/// ```
///
/// Prefer ``withDaemon(_:_:)``; with ``start(_:)`` call ``stop()`` yourself (a `defer { daemon.stopNow() }`
/// or `await daemon.stop()`); deinit stops whatever is still running as a last resort.
public final class NavSessionTestDaemon: Sendable {
    /// How to start the daemon.
    public struct Configuration: Sendable {
        /// The application manifest.
        public enum Manifest: Sendable, Hashable {
            /// The daemon's built-in demo (`org.navsession.Demo`).
            case demo
            /// A manifest file.
            case file(String)
            /// Manifest JSON, written to a file in the throwaway directory.
            case json(String)
        }

        /// The manifest; default the built-in demo.
        public var manifest: Manifest
        /// The `navsessiond` executable; `nil` = `$NAVSESSIOND`, else the package's built product next to
        /// the running test binary, else `.build/debug/navsessiond` of this package.
        public var daemonPath: String?
        /// The `dbus-daemon` configuration; `nil` = the repository's `dbus/test-session.conf`.
        public var busConfiguration: String?
        /// The bus name to wait for and talk to; `nil` = the manifest's `id` (the demo's: `org.navsession.Demo`).
        public var applicationID: String?
        /// More `navsessiond` arguments (e.g. `["--log-level", "debug"]`).
        public var extraArguments: [String]
        /// How long the daemon may take to own its name.
        public var startupTimeout: Duration
        /// How long each client call waits for its reply.
        public var callTimeout: Duration

        /// A configuration; every argument has a default.
        public init(
            manifest: Manifest = .demo, daemonPath: String? = nil, busConfiguration: String? = nil,
            applicationID: String? = nil, extraArguments: [String] = [], startupTimeout: Duration = .seconds(30),
            callTimeout: Duration = .seconds(10)
        ) {
            self.manifest = manifest
            self.daemonPath = daemonPath
            self.busConfiguration = busConfiguration
            self.applicationID = applicationID
            self.extraArguments = extraArguments
            self.startupTimeout = startupTimeout
            self.callTimeout = callTimeout
        }
    }

    /// Why the daemon could not be started; ``output`` is what it wrote.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var reason: String
        /// The daemon's stdout and stderr so far.
        public var output: String
        /// The reason and the output.
        public var description: String { output.isEmpty ? reason : "\(reason); navsessiond wrote:\n\(output)" }
    }

    /// How long `navsessiond` may take to exit after SIGTERM before it is killed.
    public static let exitDeadline: Duration = .seconds(10)

    /// The private bus's address (`unix:path=…`), e.g. for `navsessionctl --bus` or
    /// `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The application id the daemon owns.
    public let applicationID: String
    /// A client connected to the private bus, talking to the daemon.
    public let client: NavSessionClient
    /// The throwaway directory: the state directory and the daemon's log live in it; removed by ``stop()``.
    public let directory: URL
    /// The daemon's process id.
    public var processID: Int32 { process.processIdentifier }

    private let bus: PrivateBusDaemon
    private let process: Process
    private let logFile: URL
    private let stopped = Mutex(false)

    private init(
        address: String, applicationID: String, client: NavSessionClient, directory: URL, bus: PrivateBusDaemon,
        process: Process, logFile: URL
    ) {
        self.address = address
        self.applicationID = applicationID
        self.client = client
        self.directory = directory
        self.bus = bus
        self.process = process
        self.logFile = logFile
    }

    deinit {
        stopNow()
    }

    /// The session proxy of ``client``.
    public var session: SessionProxy { client.session }

    /// The environment a tool needs to reach this daemon (`DBUS_SESSION_BUS_ADDRESS`).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Everything the daemon wrote to stdout and stderr so far.
    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Whether the daemon process still runs.
    public var isRunning: Bool { process.isRunning }

    /// Opens another connection to the daemon (e.g. a second client in a test).
    public func connectClient() async throws(NavSessionError) -> NavSessionClient {
        try await NavSessionClient.connect(
            to: .address(address), applicationID: applicationID, timeout: client.timeout)
    }

    // MARK: Starting

    /// Starts a private bus and the daemon and returns once the daemon owns its name.
    /// - Throws: ``StartError`` when the bus or the daemon cannot start, or the daemon exits or does not
    ///   take its name within ``Configuration/startupTimeout``.
    public static func start(_ configuration: Configuration = Configuration()) async throws -> NavSessionTestDaemon {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("navsession-test-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StartError(reason: "cannot create \(directory.path): \(error)", output: "")
        }
        let cleanUpDirectory = { try? FileManager.default.removeItem(at: directory) }
        let binary: URL
        let arguments: [String]
        let applicationID: String
        do {
            binary = try daemonBinary(configuration.daemonPath)
            (arguments, applicationID) = try daemonArguments(configuration, binary: binary, directory: directory)
        } catch {
            cleanUpDirectory()
            throw error
        }

        let bus: PrivateBusDaemon
        do {
            bus = try PrivateBusDaemon.start(configFile: configuration.busConfiguration ?? PrivateBus.configFile)
        } catch {
            cleanUpDirectory()
            throw StartError(reason: "cannot start dbus-daemon: \(error)", output: "")
        }
        let client: NavSessionClient
        do {
            client = try await NavSessionClient.connect(
                to: .address(bus.address), applicationID: applicationID, timeout: configuration.callTimeout)
        } catch {
            bus.stop()
            cleanUpDirectory()
            throw StartError(reason: "cannot connect to the private bus: \(error)", output: "")
        }

        let logFile = directory.appendingPathComponent("navsessiond.log")
        let process = Process()
        let (exits, exited) = AsyncStream<Int32>.makeStream()
        let owners: AsyncStream<Signal>
        do {
            // Subscribed before the launch, so the daemon taking its name is never missed.
            owners = try await client.bus.signals(matching: MatchRule(
                sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"),
                arguments: [0: applicationID]))
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            let log = try FileHandle(forWritingTo: logFile)
            process.executableURL = binary
            process.arguments = ["--bus", bus.address] + arguments
            process.environment = environment(for: bus.address)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = log
            process.standardError = log
            process.terminationHandler = { finished in
                exited.yield(finished.terminationStatus)
                exited.finish()
            }
            try process.run()
        } catch {
            await client.close()
            bus.stop()
            let output = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            cleanUpDirectory()
            throw StartError(reason: "cannot launch \(binary.path): \(error)", output: output)
        }
        let daemon = NavSessionTestDaemon(
            address: bus.address, applicationID: applicationID, client: client, directory: directory, bus: bus,
            process: process, logFile: logFile)

        let name = applicationID
        let ready = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                if (try? await client.isDaemonRunning()) == true { return nil }
                for await signal in owners where signal.arguments.count == 3 {
                    if signal.arguments[2].string?.isEmpty == false { return nil }
                }
                return "the bus connection closed before navsessiond took \(name)"
            }
            group.addTask {
                for await status in exits { return "navsessiond exited with status \(status) before taking \(name)" }
                return "navsessiond exited before taking \(name)"
            }
            group.addTask {
                // The startup deadline, not a readiness poll.
                try? await Task.sleep(for: configuration.startupTimeout)
                return "navsessiond did not take \(name) within \(configuration.startupTimeout)"
            }
            let first = await group.next() ?? "no outcome"
            group.cancelAll()
            return first
        }
        if let failure = ready {
            let output = daemon.output
            await daemon.stop()
            throw StartError(reason: failure, output: output)
        }
        return daemon
    }

    /// Starts a daemon, runs `body` with it, and stops everything whether `body` returns or throws.
    public static func withDaemon<T: Sendable>(
        _ configuration: Configuration = Configuration(), _ body: (NavSessionTestDaemon) async throws -> T
    ) async throws -> T {
        let daemon = try await start(configuration)
        do {
            let result = try await body(daemon)
            await daemon.stop()
            return result
        } catch {
            await daemon.stop()
            throw error
        }
    }

    // MARK: Stopping

    /// Stops the daemon only (SIGTERM, then SIGKILL after ``exitDeadline``); the bus stays up, so a test
    /// can watch clients react to the daemon leaving. Does not block a thread.
    /// - Returns: whether the daemon exited on SIGTERM in time.
    @discardableResult
    public func stopDaemon() async -> Bool {
        guard process.isRunning else { return true }
        process.terminate()
        if await process.exited(within: Self.exitDeadline) { return true }
        kill(process.processIdentifier, SIGKILL)
        _ = await process.exited(within: .seconds(5))
        return false
    }

    /// Stops the daemon, closes the client, stops the bus and removes the throwaway directory. Idempotent.
    public func stop() async {
        guard markStopped() else { return }
        await stopDaemon()
        await client.close()
        bus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// ``stop()`` for `defer` blocks and deinit: blocks the calling thread at most ``exitDeadline`` (then
    /// SIGKILL). Idempotent.
    public func stopNow() {
        guard markStopped() else { return }
        process.terminate(within: Self.exitDeadline)
        bus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Whether this call is the first to stop.
    private func markStopped() -> Bool {
        stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
    }
}
