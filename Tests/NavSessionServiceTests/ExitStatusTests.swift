import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// navsessiond's specific exit statuses (navsessiond(1), EXIT STATUS; `ExitStatus` in the daemon): a supervisor
/// tells a mistake a restart cannot fix from a failure one may.
@Suite(.timeLimit(.minutes(2)))
struct ExitStatusTests {
    @Test func anInvalidManifestExitsWithStatus65() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exit-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("bad.json")
        try Data(#"{"id": "org.example.Bad", "nope": 1}"#.utf8).write(to: manifest)
        let result = try await ToolRunner.run(
            try DaemonFixture.binary().path, ["--manifest", manifest.path, "--ephemeral"], environment: [:],
            timeout: .seconds(30))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("invalid manifest"), "\(result)")
    }

    @Test func aBadOptionValueExitsWithStatus64() async throws {
        let result = try await ToolRunner.run(
            try DaemonFixture.binary().path, ["--log-level", "loud", "--ephemeral"], environment: [:], timeout: .seconds(30))
        #expect(result.status == 64, "\(result)")
    }

    @Test func aNameAlreadyOwnedAtStartExitsWithStatus69() async throws {
        try await DaemonFixture.with(state: .inMemory) { fixture in
            let second = try fixture.launch()
            let exit = await second.exit(within: .seconds(30))
            #expect(exit == .exited(69), "\(String(describing: exit)); it wrote:\n\(fixture.output)")
        }
    }
}
