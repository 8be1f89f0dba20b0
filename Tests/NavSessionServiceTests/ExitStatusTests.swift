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

    @Test func anInvalidInstanceIdExitsWithStatus64() async throws {
        for environment in [["NAVSESSION_INSTANCE": "bad id"], [:]] {
            let arguments = environment.isEmpty ? ["--instance", "bad id", "--ephemeral"] : ["--ephemeral"]
            let result = try await ToolRunner.run(
                try DaemonFixture.binary().path, arguments, environment: environment, timeout: .seconds(30))
            #expect(result.status == 64, "\(environment) \(arguments): \(result)")
            #expect(result.stderr.contains("invalid --instance"), "\(result)")
        }
    }

    /// The statuses navsessiond(1) lists are the ones Docs/dbus-api.md's table lists.
    @Test func theManPageAndTheDocsListTheSameExitStatuses() throws {
        let root = PrivateBus.repositoryRoot
        let page = try String(contentsOf: root.appendingPathComponent("dist/man/navsessiond.1"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: ".Sh EXIT STATUS").dropFirst().first?
            .components(separatedBy: "\n.Sh ").first)
        let listed = section.split(separator: "\n").filter { $0.hasPrefix(".It ") }.map {
            $0.dropFirst(4).replacingOccurrences(of: " Ns Ar n", with: "n")
        }
        let docs = try String(contentsOf: root.appendingPathComponent("Docs/dbus-api.md"), encoding: .utf8)
        let table = try #require(docs.components(separatedBy: "| Exit status | When |").dropFirst().first?
            .components(separatedBy: "\n\n").first)
        let documented = table.split(separator: "\n").dropFirst().flatMap { row in
            (row.split(separator: "|").first ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(Set(listed) == Set(documented), "man page \(listed), Docs/dbus-api.md \(documented)")
        #expect(listed.count >= 9, "\(listed)")
    }
}
