import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The systemd user unit `dist/navsessiond@.service` as systemd reads it: valid, and sandboxed as far as a user unit
/// allows (Docs/applications.md, "The unit's sandbox").
@Suite(.timeLimit(.minutes(1)))
struct UnitSandboxTests {
    /// What `systemd-analyze --user security` rated the unit when it was hardened (9.8 UNSAFE before). Offline, it
    /// scores the unit as if it ran as root (0.4 of this), which a user manager never does.
    static let exposureLimit = 0.8

    /// The unit instantiated for `org.example.App` in a fresh directory, `@BINDIR@` naming the built daemon's
    /// directory, and the `systemd-analyze` arguments' environment (offline mode still wants a runtime directory).
    static func withInstantiatedUnit(_ body: (URL, [String: String]) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = try String(
            contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("dist/navsessiond@.service"), encoding: .utf8)
        let bindir = try DaemonFixture.binary().deletingLastPathComponent().path
        let unit = directory.appendingPathComponent("navsessiond@org.example.App.service")
        try template.replacingOccurrences(of: "@BINDIR@", with: bindir).write(to: unit, atomically: true, encoding: .utf8)
        try await body(unit, ["XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path])
    }

    @Test func theUnitVerifies() async throws {
        try await Self.withInstantiatedUnit { unit, environment in
            let result = try await ToolRunner.run(
                "systemd-analyze", ["verify", "--user", "--man=no", unit.path], environment: environment,
                timeout: .seconds(30))
            #expect(result.status == 0, "\(result)")
            // Unknown or misspelt settings are only warned about (and ignored): a sandbox setting lost that way
            // would loosen the unit silently.
            #expect(result.stderr.isEmpty, "\(result)")
        }
    }

    @Test func theUnitsExposureStaysAtMostWhatItWasHardenedTo() async throws {
        try await Self.withInstantiatedUnit { unit, environment in
            let result = try await ToolRunner.run(
                "systemd-analyze", ["security", "--offline=true", "--user", "--no-pager", unit.path],
                environment: environment, timeout: .seconds(30))
            let line = try #require(
                result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(result)")
            let score = try #require(
                line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
            #expect(score <= Self.exposureLimit, "\(result.stdout)")
        }
    }
}
