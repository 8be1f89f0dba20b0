import Foundation
import Testing

/// list, open-window, dismiss-window and open-url against the real daemon on a private bus.
@Suite(.timeLimit(.minutes(2)))
struct SessionCommandTests {
    @Test func openWindowPrintsThePathAndListShowsIt() async throws {
        try await DaemonFixture.with { daemon in
            let main = try await daemon.openWindow("main")
            let waiting = try await daemon.openWindow("waiting")
            #expect(main != waiting)

            let list = try await daemon.ctl(["list"])
            #expect(list.status == 0, "\(list)")
            #expect(list.lines.count == 2)
            #expect(list.lines.first?.hasPrefix("\(main) main v") == true, "\(list)")
            #expect(list.lines.last?.hasPrefix("\(waiting) waiting v") == true, "\(list)")
            #expect(list.lines.first?.contains(" login \"") == true, "the active screen, then the title: \(list)")

            let json = try await daemon.ctl(["list", "--json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["window"] as? String } == [main, waiting])
            #expect(rows.map { $0["scene"] as? String } == ["main", "waiting"])
            #expect(rows.first?["path"] as? String == "/org/navsession/Session1/window/\(main)")
        }
    }

    @Test func openWindowJSONAndTheSessionBusFromTheEnvironment() async throws {
        try await DaemonFixture.with { daemon in
            // No --bus: the session bus comes from DBUS_SESSION_BUS_ADDRESS.
            let result = try await Ctl.run(["open-window", "--json", "waiting"],
                                           environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
            #expect(result.status == 0, "\(result)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
            let window = try #require(object["window"])
            #expect(object["path"] == "/org/navsession/Session1/window/\(window)")
        }
    }

    @Test func dismissWindowRemovesItFromTheList() async throws {
        try await DaemonFixture.with { daemon in
            let first = try await daemon.openWindow("main")
            let second = try await daemon.openWindow("waiting")
            let dismissed = try await daemon.ctl(["dismiss-window", first])
            #expect(dismissed.status == 0, "\(dismissed)")
            #expect(dismissed.stdout.isEmpty && dismissed.stderr.isEmpty)
            let byPath = try await daemon.ctl(["dismiss-window", "/org/navsession/Session1/window/\(second)"])
            #expect(byPath.status == 0, "\(byPath)")
            let list = try await daemon.ctl(["list"])
            #expect(list.status == 0 && list.lines.isEmpty, "\(list)")
        }
    }

    @Test func openURLRoutesADeepLinkIntoAWindow() async throws {
        try await DaemonFixture.with { daemon in
            // A deep link lands once the window shows the scene's deepLinkState (the demo: logged in, "main").
            let window = try await daemon.openWindow("main")
            try await daemon.exec(window, ["switch-model", "main"])
            let opened = try await daemon.ctl(["open-url", "navsession-demo://detail/42"])
            #expect(opened.status == 0, "\(opened)")
            let path = opened.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(path == "/org/navsession/Session1/window/\(window)")
            let routes = try await daemon.ctl(["routes", "--json", path])
            #expect(routes.status == 0, "\(routes)")
            #expect(routes.stdout.contains("\"screen\":\"detail\""), "\(routes)")

            let json = try await daemon.ctl(["open-url", "--json", "navsession-demo://detail/7"])
            #expect(json.stdout.hasPrefix("{\"window\":"), "\(json)")
        }
    }
}
