internal import ProcessSupport
import DBusKit
import Foundation

/// A private `dbus-daemon` for one test (or suite), started from the repository's `dbus/test-session.conf`.
///
/// Tests never touch the developer's session bus: the daemon and every tool started through ``run(_:_:timeout:)``
/// get an environment whose only D-Bus address is this bus's.
///
/// ```swift
/// @Test func echoAnswers() async throws {
///     let bus = try await PrivateBus.start()
///     defer { bus.stop() }
///     let server = try await bus.connect()
///     let result = try await bus.run("dbus-send", ["--session", "--print-reply", "--dest=...", ...])
///     #expect(result.status == 0)
/// }
/// ```
public final class PrivateBus: Sendable {
    /// The repository root, found from this file's location.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The config every private bus starts from.
    public static var configFile: String { repositoryRoot.appendingPathComponent("dbus/test-session.conf").path }

    /// The daemon.
    public let daemon: PrivateBusDaemon

    /// The bus address (`unix:path=/tmp/dbus-…,guid=…`).
    public var address: String { daemon.address }

    private init(daemon: PrivateBusDaemon) {
        self.daemon = daemon
    }

    /// Starts a daemon and waits until it listens.
    /// - Parameter serviceDirectories: extra `<servicedir>`s for activation tests.
    /// - Throws: ``ConnectionError`` `.daemonFailed`.
    public static func start(serviceDirectories: [String] = []) async throws -> PrivateBus {
        PrivateBus(daemon: try await PrivateBusDaemon.startOffPool(configFile: configFile, serviceDirectories: serviceDirectories))
    }

    /// Kills the daemon. Idempotent; also happens when the last reference goes away.
    public func stop() {
        daemon.stop()
    }

    /// Opens a new connection to this bus.
    public func connect() async throws -> Bus {
        try await Bus.connect(.address(address))
    }

    /// Runs a tool such as `dbus-send`, `gdbus` or `busctl` with `DBUS_SESSION_BUS_ADDRESS` set to this bus.
    ///
    /// - Parameters:
    ///   - tool: the executable, looked up in `PATH`.
    ///   - arguments: its arguments (use `--session`, `gdbus … --session`, `busctl --user`).
    ///   - timeout: after this the tool is killed and the result has `timedOut == true`; by default the
    ///     liveness bound of 20 s (``Liveness/bound(_:)``).
    /// - Returns: exit status, stdout and stderr.
    public func run(
        _ tool: String, _ arguments: [String], timeout: Duration = Liveness.bound(.seconds(20))
    ) async throws -> ToolResult {
        try await ToolRunner.run(tool, arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": address], timeout: timeout)
    }
}

/// What a tool run produced.
public struct ToolResult: Sendable, CustomStringConvertible {
    /// The exit status (or 128 + signal number).
    public let status: Int32
    /// Standard output.
    public let stdout: String
    /// Standard error.
    public let stderr: String
    /// Whether the tool was killed for exceeding its timeout.
    public let timedOut: Bool

    /// A readable form for logs and messages.
    public var description: String { "status \(status)\(timedOut ? " (timed out)" : "")\nstdout: \(stdout)\nstderr: \(stderr)" }
}

extension PrivateBusDaemon {
    /// ``PrivateBusDaemon/start(configFile:serviceDirectories:timeout:)`` on a thread of its own: it waits (up to
    /// its timeout) for the daemon to print its address, which must not block a thread of the cooperative pool.
    public static func startOffPool(configFile: String, serviceDirectories: [String] = []) async throws -> PrivateBusDaemon {
        let result: Result<PrivateBusDaemon, any Error> = await withCheckedContinuation { continuation in
            let start: @Sendable () -> Void = {
                continuation.resume(with: .success(Result {
                    try PrivateBusDaemon.start(configFile: configFile, serviceDirectories: serviceDirectories)
                }))
            }
            if !DetachedThread.start(name: "start bus", start) { start() }
        }
        return try result.get()
    }
}
