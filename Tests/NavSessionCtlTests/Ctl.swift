import DBusTestSupport
import Foundation
import Testing

/// What one run of a built executable produced.
struct CtlResult: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout split into lines, without the trailing empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }

    var description: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// Runs the built `navsessionctl` (and finds `navsessiond`) next to the test bundle.
enum Ctl {
    /// An executable built by `swift build --build-tests` into the same directory as the test bundle.
    static func binary(_ name: String) throws -> URL { try BuiltProduct.require(name) }

    /// The environment children get: ours without `NO_COLOR`, `NAVSESSION_DEST` or a session bus, plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["NAVSESSION_DEST"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `navsessionctl arguments…` to completion (killed after `timeout`) without blocking the test's thread.
    static func run(_ arguments: [String], environment extra: [String: String] = [:],
                    timeout: Duration = .seconds(30)) async throws -> CtlResult {
        // Killed with SIGKILL after the timeout, not SIGTERM: a tool that hangs may be one that no longer hears
        // SIGTERM, which is what some tests check, and the suite must end either way.
        let result = try await ToolRunner.run(
            try binary("navsessionctl").path, arguments, environment: [:], replacingEnvironment: environment(extra),
            timeout: timeout)
        return CtlResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
