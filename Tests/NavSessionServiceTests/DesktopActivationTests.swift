import DBusKit
import DBusTestSupport
import Foundation
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
}
