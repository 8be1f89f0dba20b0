import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Session1 `CheckManifest` and `ReloadManifest` through gdbus, and `SIGHUP`: three live windows migrated from
/// `detail` to `item`, their journals replaying after `kill -9`.
@Suite struct ManifestReloadBusTests {
    static func manifest(_ detail: String, renamed: Bool) -> String {
        #"""
        {"format": 1, "id": "org.navsession.Demo", "title": "Reload",
         "screens": [{"name": "list", "title": "List"}, {"name": "\#(detail)", "title": "Detail", "optional": ["id"]}],
         \#(renamed ? #""renamed": {"detail": "item"},"# : "")
         "scenes": [{"name": "browser", "title": "Browser", "default": true, "instances": "multiple",
                     "root": {"kind": "stack", "path": [{"screen": "list"}]}}]}
        """#
    }

    @Test func aReloadRenamingDetailMigratesThreeLiveWindowsAndTheirJournalsReplay() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).json").path
        try Self.manifest("detail", renamed: false).write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try await DaemonFixture.with(manifest: .file(file)) { fixture in
            var windows: [String] = []
            for index in 0..<3 {
                let window = try await fixture.openWindow("browser")
                _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "\(index)"])])
                windows.append(window)
            }
            let changed = try await fixture.signals(
                namespace: "/org/navsession/Session1", interface: try InterfaceName(DaemonFixture.windowInterface),
                member: "Changed")
            let after = Self.manifest("item", renamed: true)
            let check = try await fixture.gdbusSession("CheckManifest", [after])
            #expect(check.status == 0 && check.stdout.contains(#""from":"detail","to":"item""#), "\(check)")
            #expect(try await fixture.models(windows[0]).contains { ($0["screen"] as? String) == "detail" }, "a check changes nothing")
            let candidate = file + ".next"
            try after.write(toFile: candidate, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: candidate) }
            let ctl = try BuiltProduct.require("navsessionctl").path
            let lines = try await fixture.run(ctl, ["manifest", "check", candidate])
            #expect(lines.status == 0 && lines.stdout.hasPrefix("1 browser migrate renamed detail->item\n"), "\(lines)")
            let invalid = try await fixture.gdbusSession("ReloadManifest", [#"{"format":1}"#])
            #expect(invalid.status != 0 && invalid.stderr.contains("org.navsession.Error.InvalidManifest"), "\(invalid)")

            // The developer edits the file and reloads.
            try after.write(toFile: file, atomically: true, encoding: .utf8)
            let reloaded = try await fixture.gdbusSession("ReloadManifest", [after])
            #expect(reloaded.status == 0, "\(reloaded)")
            let signals = try await take(3, of: changed)
            #expect(Set(signals.map(\.path.rawValue)) == Set(windows))
            #expect(signals.allSatisfy { $0.arguments[2].string == #"{"reloaded":true}"# }, "\(signals.map(\.arguments))")
            for (index, window) in windows.enumerated() {
                let items = try await fixture.models(window).filter { ($0["screen"] as? String) == "item" }
                #expect(items.count == 1 && (items.first?["params"] as? [String: String]) == ["id": "\(index)"])
            }
            let screens = try await fixture.property(DaemonFixture.session, "org.navsession.Session1", "Screens")
            #expect(screens.arrayElements?.compactMap(\.string) == ["list", "item"])
            // Changes after the reload journal under the new manifest and replay after kill -9.
            _ = try await fixture.window(windows[1], "StackAppend", [.string("item"), .params(["id": "9"])])
            let routes = [try await fixture.routeSummaries(windows[0]), try await fixture.routeSummaries(windows[1])]
            try await fixture.kill()
            try await fixture.relaunch()
            #expect([try await fixture.routeSummaries(windows[0]), try await fixture.routeSummaries(windows[1])] == routes)
        }
    }

    @Test func sighupReloadsTheFileTheDaemonWasStartedWith() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).json").path
        try Self.manifest("detail", renamed: false).write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try await DaemonFixture.with(manifest: .file(file)) { fixture in
            let window = try await fixture.openWindow("browser")
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let changed = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Changed")
            try Self.manifest("item", renamed: true).write(toFile: file, atomically: true, encoding: .utf8)
            fixture.signal(SIGHUP)
            let signal = try await first(changed, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments[2].string == #"{"reloaded":true}"#)
            #expect(try await fixture.models(window).contains { ($0["screen"] as? String) == "item" })
            // A file that does not validate changes nothing; the daemon keeps serving.
            try "{".write(toFile: file, atomically: true, encoding: .utf8)
            fixture.signal(SIGHUP)
            #expect(try await fixture.window(window, "GetState").first?.string?.contains(#""item""#) == true)
        }
    }
}
