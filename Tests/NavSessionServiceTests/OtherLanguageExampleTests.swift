import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `Examples/c-client` (gdbus-codegen proxies) and `Examples/gjs-client` (`Gio.DBusProxy.makeProxyWrapper`) are
/// made from the interface XML in `dbus/` when they are built or run, then driven against a fixture daemon: a
/// change to the XML that breaks a C or JavaScript client fails here.
@Suite(.timeLimit(.minutes(3)))
struct OtherLanguageExampleTests {
    static let examples = PrivateBus.repositoryRoot.appendingPathComponent("Examples")

    /// What both examples print for the demo on a fresh daemon: the window, the log-in and the push, the push's
    /// `Changed` (its steps as sent) and the screen on top.
    static func expectTheDemoFlow(_ result: ToolResult) {
        #expect(result.status == 0, "\(result)")
        for line in [
            "opened /org/navsession/Session1/window/1",
            "logged in: v1",
            "pushed detail: v2",
            #"changed: v2 (from v1), 1 model(s) started, steps [{"kind":"push","#,
            "active screen: detail",
        ] {
            #expect(result.stdout.contains(line), "missing \(line): \(result)")
        }
    }

    @Test func theCExampleGeneratedFromTheXMLPushesAScreenAndFollowsChanged() async throws {
        let build = FileManager.default.temporaryDirectory.appendingPathComponent("c-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: build) }
        let make = try await ToolRunner.run(
            "make", ["-s", "-C", Self.examples.appendingPathComponent("c-client").path, "BUILD_DIR=\(build.path)",
                     "XML_DIR=\(PrivateBus.repositoryRoot.appendingPathComponent("dbus").path)"],
            environment: [:], timeout: .seconds(120))
        try #require(make.status == 0, "\(make)")
        try await DaemonFixture.with(state: .inMemory) { fixture in
            let result = try await ToolRunner.run(
                build.appendingPathComponent("navsession-c-client").path, [],
                environment: ["DBUS_SESSION_BUS_ADDRESS": fixture.address], timeout: .seconds(30))
            Self.expectTheDemoFlow(result)
        }
    }

    @Test func theGjsExampleReadingTheXMLPushesAScreenAndFollowsChanged() async throws {
        try await DaemonFixture.with(state: .inMemory) { fixture in
            let result = try await ToolRunner.run(
                "gjs", ["-m", Self.examples.appendingPathComponent("gjs-client/client.js").path],
                environment: [
                    "DBUS_SESSION_BUS_ADDRESS": fixture.address,
                    "NAVSESSION_INTERFACES_DIR": PrivateBus.repositoryRoot.appendingPathComponent("dbus").path,
                ],
                timeout: .seconds(30))
            Self.expectTheDemoFlow(result)
        }
    }
}
