import DBusKit
import DBusTestSupport
import Dispatch
import Foundation
import Testing

/// A private bus with the real `navsessiond` on it (`--bus <address> --state-dir <temp dir>`), ready to serve.
final class DaemonFixture: Sendable {
    /// The daemon's name.
    static let name = "org.navsession.Demo"

    /// The private bus.
    let bus: PrivateBus
    /// The daemon process.
    private let daemon: Process
    /// Its state directory (removed by ``stop()``).
    let stateDirectory: URL

    /// The bus address, for `--bus`.
    var address: String { bus.address }

    private init(bus: PrivateBus, daemon: Process, stateDirectory: URL) {
        self.bus = bus
        self.daemon = daemon
        self.stateDirectory = stateDirectory
    }

    /// Starts a bus and the daemon, and returns once the daemon owns its name (NameOwnerChanged, no sleeping),
    /// or throws when it exits first. Suites bound a hung daemon with `.timeLimit`.
    static func start() async throws -> DaemonFixture {
        let bus = try PrivateBus.start()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("navsessionctl-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("navsessiond.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw FixtureError(description: "cannot create \(log.path)")
        }

        let observer = try await bus.connect()
        let owners = try await observer.signals(
            matching: MatchRule(sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"),
                                arguments: [0: name]))

        let daemon = Process()
        daemon.executableURL = try daemonBinary()
        daemon.arguments = ["--bus", bus.address, "--state-dir", directory.appendingPathComponent("state").path]
        daemon.environment = Ctl.environment()
        daemon.standardInput = FileHandle.nullDevice
        let logHandle = try FileHandle(forWritingTo: log)
        daemon.standardOutput = logHandle
        daemon.standardError = logHandle
        let (exits, exited) = AsyncStream<Int32>.makeStream()
        daemon.terminationHandler = { process in
            exited.yield(process.terminationStatus)
            exited.finish()
        }
        try daemon.run()
        let fixture = DaemonFixture(bus: bus, daemon: daemon, stateDirectory: directory)

        let ready: Bool
        if try await observer.nameHasOwner(try BusName(name)) {
            ready = true
        } else {
            ready = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await signal in owners where signal.arguments.count == 3 {
                        if signal.arguments[2].string?.isEmpty == false { return true }
                    }
                    return false
                }
                group.addTask {
                    for await _ in exits { return false }
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
        }
        await observer.close()
        guard ready else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            fixture.stop()
            throw FixtureError(description: "navsessiond did not take \(name) on the private bus; its output: \(output)")
        }
        return fixture
    }

    /// The built `navsessiond`, or the file `NAVSESSIONCTL_TEST_DAEMON` names (to try another build of the daemon).
    static func daemonBinary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["NAVSESSIONCTL_TEST_DAEMON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return try Ctl.binary("navsessiond")
    }

    /// Runs `navsessionctl SUBCOMMAND --bus <address> rest…`.
    func ctl(_ arguments: [String], environment: [String: String] = [:]) async throws -> CtlResult {
        try await Ctl.run(withBus(arguments), environment: environment)
    }

    /// Inserts `--bus <address>` right after the subcommand (before any pass-through words).
    func withBus(_ arguments: [String]) -> [String] {
        guard let subcommand = arguments.first else { return ["--bus", address] }
        return [subcommand, "--bus", address] + arguments.dropFirst()
    }

    /// Opens a window through `open-window` and returns its number.
    func openWindow(_ scene: String, _ parameters: [String] = []) async throws -> String {
        let result = try await ctl(["open-window", scene] + parameters)
        try #require(result.status == 0, "open-window failed: \(result)")
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "/org/navsession/Session1/window/"
        try #require(path.hasPrefix(prefix), "open-window printed \(path)")
        return String(path.dropFirst(prefix.count))
    }

    /// Runs `exec WINDOW words…`, expects success and returns the printed version.
    @discardableResult
    func exec(_ window: String, _ words: [String]) async throws -> UInt64 {
        let result = try await ctl(["exec", window] + words)
        try #require(result.status == 0, "exec \(words) failed: \(result)")
        return try #require(UInt64(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
                            "exec printed \(result.stdout)")
    }

    /// Stops only the daemon (SIGTERM) and waits for it; the bus stays up.
    func stopDaemon() async {
        guard daemon.isRunning else { return }
        daemon.terminate()
        if await !daemon.exited(within: .seconds(10)) {
            daemon.terminate(within: .zero)
            Issue.record("navsessiond did not exit within 10 s of SIGTERM and was killed")
        }
    }

    /// Stops the daemon and the bus and removes the state directory. Idempotent.
    func stop() {
        if !daemon.terminate(within: .seconds(10)) {
            Issue.record("navsessiond did not exit within 10 s of SIGTERM and was killed")
        }
        bus.stop()
        try? FileManager.default.removeItem(at: stateDirectory)
    }
}

/// The fixture could not start.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}
