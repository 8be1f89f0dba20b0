import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `org.freedesktop.Application` as the desktop uses it: only the app's own URIs, typed action
/// parameters, and the platform data a renderer needs to raise its window.
@Suite struct DesktopActivationTests {
    func gdbus(_ fixture: DaemonFixture, _ method: String, _ arguments: [String]) async throws -> ToolResult {
        try await fixture.run(
            "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                      "--method", "org.freedesktop.Application.\(method)"] + arguments)
    }

    @Test func openingAForeignURIIsRefusedAndOpensNothing() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await gdbus(fixture, "Open", ["['navsession-demo://detail/1', 'file:///etc/hostname']", "{}"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
            #expect(result.stderr.contains("navsession-demo:"), "\(result)")
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.isEmpty == true)
        }
    }

    @Test func newWindowWithAParameterOfTheWrongTypeIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let wrong = try await gdbus(fixture, "ActivateAction", ["new-window", "[<uint32 3>]", "{}"])
            #expect(wrong.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrong)")
            let many = try await gdbus(fixture, "ActivateAction", ["new-window", "[<'main'>, <'waiting'>]", "{}"])
            #expect(many.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(many)")
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.isEmpty == true)
        }
    }

    @Test func theActivationTokenReachesTheWindowsRenderer() async throws {
        try await DaemonFixture.with { fixture in
            let effects = try await fixture.signals(
                namespace: DaemonFixture.session, interface: try InterfaceName("org.navsession.Window1"), member: "Effect")
            let result = try await gdbus(
                fixture, "Activate", ["{'activation-token': <'token-42'>, 'desktop-startup-id': <'id-7'>, 'other': <1>}"])
            #expect(result.status == 0, "\(result)")
            let effect = try await first(effects, timeout: .seconds(10)) { _ in true }
            #expect(effect.arguments[0] == .string("activate"))
            #expect(effect.arguments[1].keyedEntries == ["activation-token": .string("token-42"), "desktop-startup-id": .string("id-7")])
            // Activating again raises the same window: another "activate", no second window.
            _ = try await gdbus(fixture, "Activate", ["{}"])
            let again = try await first(effects, timeout: .seconds(10)) { _ in true }
            #expect(again.arguments[0] == .string("activate"))
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.count == 1)
        }
    }

    /// `dist/org.navsession.Demo.desktop` (installed by scripts/install) is what `gapplication` reads.
    @Test func gapplicationFindsTheDesktopEntryAndItsAction() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-desktop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let applications = data.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let template = try String(
            contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("dist/org.navsession.Demo.desktop"), encoding: .utf8)
        // GDesktopAppInfo ignores an entry whose program does not exist: point it at the built daemon.
        let binaries = try DaemonFixture.binary().deletingLastPathComponent().path
        try template.replacingOccurrences(of: "@BINDIR@", with: binaries)
            .write(to: applications.appendingPathComponent("org.navsession.Demo.desktop"), atomically: true, encoding: .utf8)
        let environment = ["XDG_DATA_DIRS": data.path, "XDG_DATA_HOME": data.appendingPathComponent("home").path]
        let actions = try await ToolRunner.run(
            "gapplication", ["list-actions", "org.navsession.Demo"], environment: environment, timeout: Liveness.bound(.seconds(20)))
        #expect(actions.status == 0, "\(actions)")
        #expect(actions.stdout == "new-window\nreopen-window\n", "\(actions)")
        let apps = try await ToolRunner.run("gapplication", ["list-apps"], environment: environment, timeout: Liveness.bound(.seconds(20)))
        #expect(apps.stdout.contains("org.navsession.Demo"), "\(apps)")
    }
}
