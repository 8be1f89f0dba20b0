import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Session1 `SaveSession`, `ListSessions`, `OpenSession`, `DeleteSession` through gdbus and navsessionctl, and after
/// a SIGKILL: a saved session of two windows reopens with the same routes.
@Suite struct NamedSessionBusTests {
    @Test func twoSavedWindowsReopenWithTheSameRoutesAfterSIGKILL() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            try await fixture.logIn(main)
            _ = try await fixture.window(main, "StackAppend", [.string("detail"), .params(["id": "42"])])
            _ = try await fixture.window(main, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "42"])])
            let waiting = try await fixture.openWindow("waiting")
            let routes = [try await fixture.routeSummaries(main), try await fixture.routeSummaries(waiting)]
            let saved = try await fixture.gdbusSession("SaveSession", ["work", "['\(main)', '\(waiting)']"])
            #expect(saved.status == 0, "\(saved)")
            try await fixture.kill()
            try await fixture.relaunch()
            let listed = try await fixture.gdbusSession("ListSessions")
            #expect(listed.stdout.contains(#""name":"work""#) && listed.stdout.contains(#""activeScreen":"editor""#), "\(listed)")
            // The single-instance main window is still open: the whole session is refused, nothing opens.
            let refused = try await fixture.gdbusSession("OpenSession", ["work"])
            #expect(refused.status != 0 && refused.stderr.contains("InvalidArgs"), "\(refused)")
            _ = try await fixture.session("DismissWindow", [try .path(main)])
            let opened = try await fixture.session("OpenSession", [.string("work")])
            let elements = opened.first?.arrayElements ?? []
            let paths = elements.compactMap { $0.objectPath?.rawValue }
            #expect(paths.count == 2 && !paths.contains(main) && !paths.contains(waiting), "new numbers: \(paths)")
            #expect([try await fixture.routeSummaries(paths[0]), try await fixture.routeSummaries(paths[1])] == routes)
            #expect(try await fixture.windowProperty(paths[0], "ActiveScreen") == .string("editor"))
        }
    }

    @Test func navsessionctlSavesListsOpensAndDeletesAndAnUnknownNameIsUnknownSession() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            try await fixture.logIn(main)
            let ctl = try BuiltProduct.require("navsessionctl").path
            #expect(try await fixture.run(ctl, ["session", "save", "solo", "1"]).status == 0)
            let list = try await fixture.run(ctl, ["session", "list"])
            #expect(list.status == 0 && list.stdout.hasPrefix("solo main:home saved="), "\(list)")
            let json = try await fixture.run(ctl, ["session", "list", "--json"])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(parsed.first?["name"] as? String == "solo")
            #expect(try await fixture.run(ctl, ["session", "delete", "solo"]).status == 0)
            let unknown = try await fixture.run(ctl, ["session", "open", "solo"])
            #expect(unknown.status == 1 && unknown.stderr.contains("org.navsession.Error.UnknownSession"), "\(unknown)")
            let badName = try await fixture.gdbusSession("SaveSession", ["'a/b'", "[]"])
            #expect(badName.status != 0 && badName.stderr.contains("InvalidArgs"), "\(badName)")
        }
    }
}
