import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Session1 `SetWindowPolicy` through gdbus, with a client in a real bubblewrap sandbox carrying a `/.flatpak-info`
/// as Flatpak writes it (Flatpak itself is not installed here; bubblewrap is what it runs apps in): the sandboxed app
/// the policy names may change the window, a host client's change is AccessDenied and its GetState answers with the
/// policy, the sandbox may not manage the policy, and all of it holds after `kill -9`.
@Suite struct WindowPolicyBusTests {
    /// `gdbus call` of `member` on `path`, run inside a bubblewrap sandbox whose root holds a `.flatpak-info` naming
    /// `app` (the bus socket is under /tmp, bound in).
    func sandboxed(
        _ fixture: DaemonFixture, app: String, _ path: String, _ member: String, _ arguments: [String]
    ) async throws -> ToolResult {
        let info = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
        try Data("[Application]\nname=\(app)\nruntime=runtime/org.gnome.Platform/x86_64/45\n".utf8).write(to: info)
        defer { try? FileManager.default.removeItem(at: info) }
        return try await fixture.run("bwrap", [
            "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--bind", "/tmp", "/tmp", "--proc", "/proc",
            "--dev", "/dev", "--ro-bind", info.path, "/.flatpak-info",
            "gdbus", "call", "--session", "--dest", DaemonFixture.name, "--object-path", path, "--method", member,
        ] + arguments)
    }

    static let setTitle = #"'[{"command":"setParams","title":"From the remote"}]'"#

    @Test func theSandboxedAppThePolicyNamesMayChangeTheWindowAndAHostClientOnlyRead() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") else {
            Issue.record("bubblewrap (bwrap) is not installed: scripts/setup installs it")
            return
        }
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("waiting")
            let number = String(window.split(separator: "/").last ?? "")
            let set = try await fixture.gdbusSession("SetWindowPolicy", [number, #"'{"change":["app:org.example.Remote"]}'"#])
            #expect(set.status == 0, "\(set)")
            let remote = try await sandboxed(
                fixture, app: "org.example.Remote", window, "org.navsession.Window1.Apply", [Self.setTitle, "{}"])
            #expect(remote.status == 0, "the app the policy names: \(remote)")
            #expect(try await fixture.windowProperty(window, "Title") == .string("From the remote"))
            for _ in 0..<2 {
                let host = try await fixture.gdbus(window, "Apply", [#"'[{"command":"setParams","title":"Host"}]'"#, "{}"])
                #expect(host.status != 0 && host.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(host)")
                let close = try await fixture.gdbusSession("DismissWindow", ["'\(window)'"])
                #expect(close.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(close)")
                let state = try await fixture.gdbus(window, "GetState")
                #expect(state.status == 0 && state.stdout.contains(#""policy":{"change":["app:org.example.Remote"],"manage":["host"]}"#), "\(state)")
                let other = try await sandboxed(
                    fixture, app: "org.example.Other", window, "org.navsession.Window1.Apply", [Self.setTitle, "{}"])
                #expect(other.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "another app: \(other)")
                let manage = try await sandboxed(
                    fixture, app: "org.example.Remote", DaemonFixture.session, "org.navsession.Session1.SetWindowPolicy",
                    [number, "''"])
                #expect(manage.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "manage is host's: \(manage)")
                // Acknowledged, so durable.
                try await fixture.kill()
                try await fixture.relaunch()
            }
            let lifted = try await fixture.gdbusSession("SetWindowPolicy", [number, "''"])
            #expect(lifted.status == 0, "\(lifted)")
            let host = try await fixture.gdbus(window, "Apply", [#"'[{"command":"setParams","title":"Host"}]'"#, "{}"])
            #expect(host.status == 0, "\(host)")
            let bad = try await fixture.gdbusSession("SetWindowPolicy", [number, #"'{"change":["nope"]}'"#])
            #expect(bad.stderr.contains("InvalidArgs") && bad.stderr.contains("nope"), "\(bad)")
            let unknown = try await fixture.gdbusSession("SetWindowPolicy", ["99", "''"])
            #expect(unknown.stderr.contains("UnknownObject"), "\(unknown)")
        }
    }
}
