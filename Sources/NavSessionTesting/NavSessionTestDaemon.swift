import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import Synchronization

/// A `navsessiond` on a private `dbus-daemon`, for tests: started with a manifest and a throwaway directory,
/// handed back with a connected client, and stopped on every exit path. The project's own suites use it too,
/// for everything from a single call to restarts on the same state, activation and kills.
///
/// Works from Swift Testing and XCTest alike (nothing here depends on either). Readiness is asked of the
/// bus — the daemon is ready when it owns its application id (`NameOwnerChanged`/`NameHasOwner`) — so no
/// test sleeps, and no wait here blocks a thread of the cooperative pool: the daemon is a ``ChildProcess``,
/// whose exit wakes its waiters.
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
/// Prefer ``withDaemon(_:_:)``; with ``start(_:)`` end with `try await daemon.stop()`. There is no blocking
/// stop for `defer`: a blocked thread of the cooperative pool stalls every other test. Deinit kills (SIGKILL,
/// without waiting) whatever is still running, as a last resort.
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

        /// Where the daemon keeps its session.
        public enum State: Sendable, Hashable {
            /// In memory (`--ephemeral`): every start is an empty session.
            case inMemory
            /// `--state-dir` in the throwaway directory: survives ``restart(_:)``, removed by ``stop()``.
            case throwawayDirectory
            /// `--state-dir PATH`: the caller's directory, never removed here.
            case directory(String)
        }

        /// The manifest; default the built-in demo.
        public var manifest: Manifest
        /// The `navsessiond` executable; `nil` = `$NAVSESSIOND`, else the package's built product next to
        /// the running test binary, else `.build/debug/navsessiond` of this package.
        public var daemonPath: String?
        /// The `dbus-daemon` configuration; `nil` = the repository's `dbus/test-session.conf`.
        public var busConfiguration: String?
        /// Extra `<servicedir>`s for the bus (D-Bus activation tests).
        public var serviceDirectories: [String]
        /// The bus name to wait for and talk to; `nil` = the manifest's `id` (the demo's: `org.navsession.Demo`).
        public var applicationID: String?
        /// Where the session is kept; default in memory.
        public var state: State
        /// `--log-level`; default `info`, so a start and a shutdown show in ``output``.
        public var logLevel: String
        /// The daemon's whole environment; `nil` = ours without any D-Bus address or display.
        /// `DBUS_SESSION_BUS_ADDRESS` is always the private bus's.
        public var environment: [String: String]?
        /// More `navsessiond` arguments (e.g. `["--replace"]`).
        public var extraArguments: [String]
        /// Whether ``start(_:)`` launches the daemon; false = only the bus and the client (then
        /// ``launch(_:through:)`` or D-Bus activation starts it).
        public var launchesDaemon: Bool
        /// How long the daemon may take to own its name.
        public var startupTimeout: Duration
        /// How long each client call waits for its reply.
        public var callTimeout: Duration

        /// A configuration; every argument has a default.
        public init(
            manifest: Manifest = .demo, daemonPath: String? = nil, busConfiguration: String? = nil,
            serviceDirectories: [String] = [], applicationID: String? = nil, state: State = .inMemory,
            logLevel: String = "info", environment: [String: String]? = nil, extraArguments: [String] = [],
            launchesDaemon: Bool = true, startupTimeout: Duration = .seconds(30), callTimeout: Duration = .seconds(10)
        ) {
            self.manifest = manifest
            self.daemonPath = daemonPath
            self.busConfiguration = busConfiguration
            self.serviceDirectories = serviceDirectories
            self.applicationID = applicationID
            self.state = state
            self.logLevel = logLevel
            self.environment = environment
            self.extraArguments = extraArguments
            self.launchesDaemon = launchesDaemon
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

    /// The daemon did not exit within ``exitDeadline`` of SIGTERM and was killed.
    public struct StopError: Error, Sendable, CustomStringConvertible {
        /// What the kernel said of the process at the deadline (``ChildProcess/diagnosis``).
        public var diagnosis: String
        /// Everything the daemon wrote.
        public var output: String
        /// The diagnosis and the output.
        public var description: String {
            "navsessiond did not exit within \(NavSessionTestDaemon.exitDeadline) of SIGTERM and was killed; at the "
                + "deadline \(diagnosis); navsessiond wrote:\n\(output)"
        }
    }

    /// How a launch ended: the daemon owns its name, or it exited first.
    public enum Launch: Sendable, Equatable {
        /// It owns its application id.
        case serving
        /// It exited before it took its name.
        case exited(ChildProcess.Exit)
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
    /// The throwaway directory: the daemon's log (and a throwaway state directory) live in it; removed by
    /// ``stop()``.
    public let directory: URL
    /// The state directory (`--state-dir`), or nil for a session in memory.
    public let stateDirectory: String?
    /// The configuration it was started with.
    public let configuration: Configuration

    private let privateBus: PrivateBusDaemon
    private let binary: URL
    private let arguments: [String]
    private let logFile: URL
    /// Every daemon launched here, the most recent last; all are stopped by ``stopDaemon()``.
    private let launched = Mutex<[ChildProcess]>([])
    private let stopped = Mutex(false)

    private init(
        configuration: Configuration, address: String, applicationID: String, client: NavSessionClient,
        directory: URL, stateDirectory: String?, privateBus: PrivateBusDaemon, binary: URL, arguments: [String],
        logFile: URL
    ) {
        self.configuration = configuration
        self.address = address
        self.applicationID = applicationID
        self.client = client
        self.directory = directory
        self.stateDirectory = stateDirectory
        self.privateBus = privateBus
        self.binary = binary
        self.arguments = arguments
        self.logFile = logFile
    }

    deinit {
        // Last resort, and never a wait: a test that forgot ``stop()`` must not leave a daemon behind.
        guard markStopped() else { return }
        for process in launched.withLock({ $0 }) { process.signal(SIGKILL) }
        privateBus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The session proxy of ``client``.
    public var session: SessionProxy { client.session }

    /// The client's D-Bus connection, for raw calls and match rules.
    public var bus: Bus { client.bus }

    /// The environment a tool needs to reach this daemon (`DBUS_SESSION_BUS_ADDRESS`).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Everything the daemon (every instance launched here) wrote to stdout and stderr so far.
    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// The most recently launched daemon process, if any.
    public var process: ChildProcess? { launched.withLock { $0.last } }

    /// The daemon's process id (the most recently launched instance; 0 before any launch).
    public var processID: Int32 { process?.pid ?? 0 }

    /// Whether the most recently launched daemon still runs.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Opens another connection to the daemon (e.g. a second client in a test).
    public func connectClient() async throws(NavSessionError) -> NavSessionClient {
        try await NavSessionClient.connect(
            to: .address(address), applicationID: applicationID, timeout: client.timeout)
    }

    /// Opens another raw D-Bus connection to the private bus.
    public func connect() async throws -> Bus {
        try await Bus.connect(.address(address))
    }

    /// Runs a tool (`dbus-send`, `gdbus`, `busctl`, `navsessionctl`) with `DBUS_SESSION_BUS_ADDRESS` set to the
    /// private bus; killed after `timeout`.
    public func run(_ tool: String, _ arguments: [String], timeout: Duration = .seconds(30)) async throws -> ToolResult {
        try await ToolRunner.run(tool, arguments, environment: environment, timeout: timeout)
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
        let stateDirectory: String?
        do {
            binary = try daemonBinary(configuration.daemonPath)
            (arguments, applicationID, stateDirectory) = try daemonArguments(configuration, directory: directory)
        } catch {
            cleanUpDirectory()
            throw error
        }
        let privateBus: PrivateBusDaemon
        do {
            privateBus = try await PrivateBusDaemon.startOffPool(
                configFile: configuration.busConfiguration ?? PrivateBus.configFile,
                serviceDirectories: configuration.serviceDirectories)
        } catch {
            cleanUpDirectory()
            throw StartError(reason: "cannot start dbus-daemon: \(error)", output: "")
        }
        let client: NavSessionClient
        do {
            client = try await NavSessionClient.connect(
                to: .address(privateBus.address), applicationID: applicationID, timeout: configuration.callTimeout)
        } catch {
            privateBus.stop()
            cleanUpDirectory()
            throw StartError(reason: "cannot connect to the private bus: \(error)", output: "")
        }
        let logFile = directory.appendingPathComponent("navsessiond.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let daemon = NavSessionTestDaemon(
            configuration: configuration, address: privateBus.address, applicationID: applicationID, client: client,
            directory: directory, stateDirectory: stateDirectory, privateBus: privateBus, binary: binary,
            arguments: arguments, logFile: logFile)
        guard configuration.launchesDaemon else { return daemon }
        do {
            let outcome = try await daemon.launchAndWait()
            if case .exited(let exit) = outcome {
                throw StartError(reason: "navsessiond \(exit) before taking \(applicationID)", output: daemon.output)
            }
        } catch {
            try? await daemon.stop()
            throw error
        }
        return daemon
    }

    /// Starts a daemon, runs `body` with it, and stops everything whether `body` returns or throws.
    /// - Throws: what `body` throws; else a ``StopError`` when the daemon did not exit on SIGTERM.
    public static func withDaemon<T: Sendable>(
        _ configuration: Configuration = Configuration(), _ body: (NavSessionTestDaemon) async throws -> T
    ) async throws -> T {
        let daemon = try await start(configuration)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(daemon))
        } catch {
            result = .failure(error)
        }
        do {
            try await daemon.stop()
        } catch {
            // The body's own failure says more; a hang at the end is reported when the body succeeded.
            if case .success = result { throw error }
        }
        return try result.get()
    }

    /// Launches one more daemon on this bus and state (the previous one may still run, e.g. to test
    /// `--replace`), without waiting for it; it becomes ``process``.
    /// - Parameters:
    ///   - extraArguments: added after the configuration's.
    ///   - wrapper: a command the daemon runs under (e.g. `["setpriv", "--reuid", "65534", …]`).
    @discardableResult
    public func launch(_ extraArguments: [String] = [], through wrapper: [String] = []) throws -> ChildProcess {
        let log = open(logFile.path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard log >= 0 else {
            throw StartError(reason: "cannot open \(logFile.path): \(String(cString: strerror(errno)))", output: "")
        }
        defer { close(log) }
        var environment = configuration.environment ?? Self.environment(for: nil)
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        // Emitted documents: every daemon of a test run records what it emits when the run asks for it
        // (`scripts/test` sets it; Docs/testing.md, "Schemas"), whatever environment the test gave.
        if environment["NAVSESSION_EMITTED_DOCUMENTS"] == nil,
           let documents = ProcessInfo.processInfo.environment["NAVSESSION_EMITTED_DOCUMENTS"], !documents.isEmpty
        {
            environment["NAVSESSION_EMITTED_DOCUMENTS"] = documents
        }
        let command = wrapper + [binary.path, "--bus", address] + arguments + extraArguments
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(command, environment: environment, stdout: log, stderr: log)
        } catch {
            throw StartError(reason: "cannot launch \(binary.path): \(error)", output: output)
        }
        launched.withLock { $0.append(process) }
        return process
    }

    /// Launches a daemon (as ``launch(_:through:)``) and waits until it owns its name or exits, whichever
    /// comes first.
    /// - Throws: ``StartError`` when neither happens within ``Configuration/startupTimeout``.
    @discardableResult
    public func launchAndWait(_ extraArguments: [String] = [], through wrapper: [String] = []) async throws -> Launch {
        // Subscribed before the launch, so the daemon taking its name is never missed.
        let owners = try await bus.signals(matching: MatchRule(
            sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"), arguments: [0: applicationID]))
        let process = try launch(extraArguments, through: wrapper)
        let timeout = configuration.startupTimeout
        let client = client
        let outcome = await AsyncStream<Launch>.racing([
            {
                // A replacing daemon takes the name from a running one: only a new owner counts, not a name
                // that is owned already (unless no other daemon of ours could own it).
                if (try? await client.isDaemonRunning()) == true, !extraArguments.contains("--replace") {
                    return .serving
                }
                return await owners.first(within: timeout) { signal in
                    signal.arguments.count == 3 && signal.arguments[2].string?.isEmpty == false
                } == nil ? nil : .serving
            },
            { await process.exit(within: timeout).map(Launch.exited) },
        ]).first(within: timeout)
        guard let outcome else {
            throw StartError(
                reason: "navsessiond did not take \(applicationID) within \(timeout); \(process.diagnosis)",
                output: output)
        }
        return outcome
    }

    /// Stops the daemon (as ``stopDaemon()``) and starts another on the same bus and state, returning once it
    /// serves.
    /// - Throws: ``StopError`` when the old one hung; ``StartError`` when the new one does not serve.
    public func restart(_ extraArguments: [String] = []) async throws {
        try await stopDaemon()
        let outcome = try await launchAndWait(extraArguments)
        if case .exited(let exit) = outcome {
            throw StartError(reason: "navsessiond \(exit) on restart", output: output)
        }
    }

    // MARK: Stopping

    /// Sends `signal` to the daemon (e.g. SIGKILL, SIGSTOP); see ``waitForExit(within:)``.
    public func signal(_ signal: Int32) {
        process?.signal(signal)
    }

    /// How the daemon ended, once it ends within `timeout`; nil if it still runs then (or never ran).
    public func waitForExit(within timeout: Duration = NavSessionTestDaemon.exitDeadline) async -> ChildProcess.Exit? {
        await process?.exit(within: timeout)
    }

    /// Kills the daemon with SIGKILL and returns once it has exited and the bus has released its name (so a
    /// new launch is not mistaken for the old owner).
    public func kill() async throws {
        guard let process else { return }
        let owners = try await bus.signals(matching: MatchRule(
            sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"), arguments: [0: applicationID]))
        process.signal(SIGKILL)
        guard await process.exit(within: .seconds(30)) != nil else {
            throw StartError(reason: "navsessiond did not die of SIGKILL; \(process.diagnosis)", output: output)
        }
        if try await bus.nameHasOwner(try BusName(applicationID)) {
            let released = await owners.first(within: .seconds(30)) {
                $0.arguments.count == 3 && $0.arguments[2].string == ""
            }
            if released == nil {
                throw StartError(reason: "the bus did not release \(applicationID) after SIGKILL", output: output)
            }
        }
    }

    /// Stops the daemon only — every instance launched here that still runs: SIGTERM, then SIGKILL after
    /// ``exitDeadline`` —; the bus stays up, so a test can watch clients react to the daemon leaving, or launch
    /// another. Does not block a thread.
    /// - Throws: ``StopError`` (after killing it) when one did not exit on SIGTERM in time.
    public func stopDaemon() async throws(StopError) {
        let running = launched.withLock { $0 }.filter(\.isRunning)
        for process in running { process.signal(SIGTERM) }
        var hung: [String] = []
        for process in running where await process.exit(within: Self.exitDeadline) == nil {
            hung.append(process.diagnosis)
            process.signal(SIGKILL)
            _ = await process.exit(within: .seconds(10))
        }
        if !hung.isEmpty { throw StopError(diagnosis: hung.joined(separator: "; "), output: output) }
    }

    /// Stops the daemon, closes the client, stops the bus and removes the throwaway directory. Idempotent.
    /// - Throws: ``StopError`` when the daemon did not exit on SIGTERM in time (everything is stopped anyway).
    public func stop() async throws(StopError) {
        guard markStopped() else { return }
        var failure: StopError?
        do { try await stopDaemon() } catch { failure = error }
        await client.close()
        privateBus.stop()
        try? FileManager.default.removeItem(at: directory)
        if let failure { throw failure }
    }

    /// Stops the bus only (the daemon sees its connection close).
    public func stopBus() {
        privateBus.stop()
    }

    /// Whether this call is the first to stop.
    private func markStopped() -> Bool {
        stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
    }
}
