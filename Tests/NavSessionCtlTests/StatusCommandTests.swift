import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `status`: the daemon at a glance from Session1's properties (Docs/cli.md, "status").
@Suite(.timeLimit(.minutes(2)))
struct StatusCommandTests {
    @Test func statusShowsTheApplicationWhyItStartedAndWhatIsOpen() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let text = try await daemon.ctl(["status"])
            #expect(text.status == 0, "\(text)")
            let lines = text.lines
            #expect(lines.first == "org.navsession.Demo", "\(text)")
            #expect(lines.contains("  windows: \(window.split(separator: "/").last ?? "")"), "\(text)")
            #expect(lines.contains("  scenes: main waiting split"), "\(text)")
            #expect(lines.contains { $0.hasPrefix("  restore reason: ") }, "\(text)")
            #expect(lines.contains { $0.hasPrefix("  owner: :") }, "\(text)")
            #expect(lines.contains { $0.hasPrefix("  screens: ") && $0.contains(" editor") }, "\(text)")
            #expect(lines.contains("  guards: account=-"), "\(text)")
        }
    }

    @Test func statusJSONCarriesEverySessionProperty() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let result = try await daemon.ctl(["status", "--json"])
            #expect(result.status == 0, "\(result)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(Set(object.keys) == [
                "applicationId", "instance", "owner", "restoreReason", "restoreSetAside", "version", "windows", "scenes",
                "screens", "guards",
            ])
            #expect(object["applicationId"] as? String == "org.navsession.Demo")
            #expect(object["windows"] as? [String] == ["/org/navsession/Session1/window/\(window)"])
            #expect(object["guards"] as? [String: String] == ["account": ""])
            #expect((object["version"] as? NSNumber)?.intValue == 1)
        }
    }

    @Test func statusWithNoDaemonSaysSoAndFails() async throws {
        try await DaemonFixture.with { daemon in
            let result = try await daemon.ctl(["status", "--dest", "org.example.Nobody"])
            #expect(result.status != 0, "\(result)")
            #expect(result.stderr.contains("org.example.Nobody"), "\(result)")
        }
    }
}
