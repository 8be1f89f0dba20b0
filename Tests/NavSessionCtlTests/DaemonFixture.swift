import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// A private bus with the real `navsessiond` on it (`--bus <address> --state-dir <temp dir>`), ready to serve.
final class DaemonFixture: Sendable {
    static let name = "org.navsession.Demo"

    /// The project's one throwaway-daemon mechanism (NavSessionTesting): a private bus, the daemon with the
    /// demo manifest and a throwaway directory, readiness asked of the bus.
    let daemon: NavSessionTestDaemon

    var address: String { daemon.address }

    private init(daemon: NavSessionTestDaemon) {
        self.daemon = daemon
    }

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
    func stopDaemon() async throws {
        try await daemon.stopDaemon()
    }

    /// Starts a fixture, runs `body`, and stops the daemon and the bus whether `body` throws or not.
    static func with(_ body: (DaemonFixture) async throws -> Void) async throws {
        try await NavSessionTestDaemon.withDaemon(.init(daemonPath: try daemonBinary().path)) { daemon in
            try await body(DaemonFixture(daemon: daemon))
        }
    }
}
