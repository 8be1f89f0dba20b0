import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// GoForward, CanGoForward and the forward list through the bus (dbus-send and gdbus) on the
/// demo manifest, and after a SIGKILL.
@Suite struct GoForwardBusTests {
    func canGoForward(_ fixture: DaemonFixture, _ window: String) async throws -> Bool {
        try await fixture.windowProperty(window, "CanGoForward") == .boolean(true)
    }

    @Test func goBackThenGoForwardWithDbusSendPushesTheSameDetailAgain() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let old = try await fixture.modelID(window, where: "screen", is: "detail")
            #expect(try await !canGoForward(fixture, window))
            #expect(try await fixture.dbusSendVersion(window, "GoBack").version != nil)
            #expect(try await canGoForward(fixture, window))
            let before = try await fixture.version(window)
            #expect(try await fixture.dbusSendVersion(window, "GoForward").version == before + 1)
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            let new = try await fixture.modelID(window, where: "screen", is: "detail")
            #expect(new == old, "the detail comes back as itself")
            #expect(try await !canGoForward(fixture, window))
        }
    }

    @Test func goForwardWithNothingToGoForwardIsNothingToGoForward() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let refused = try await fixture.dbusSendVersion(window, "GoForward")
            #expect(refused.version == nil && refused.error.contains("org.navsession.Error.NothingToGoForward"), "\(refused)")
        }
    }

    @Test func goForwardWithGdbusReentersASheetAndItsPushInOneChangeOfPlannedSteps() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            _ = try await fixture.window(window, "GoBackToRoot")
            #expect(try await fixture.routeSummaries(window) == [])
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            _ = try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"goForward","count":2}]"#)])
            let changed = try #require(try await take(1, of: changes).first)
            let steps = try #require(try json(changed.arguments[6].string) as? [[String: Any]])
            #expect(steps.compactMap { $0["kind"] as? String } == ["present", "push"], "\(steps)")
            #expect(try await fixture.routeSummaries(window) == ["sheet editor", "push about"])
            // Through gdbus: nothing left to go forward to.
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.GoForward"])
            #expect(result.status != 0 && result.stderr.contains("NothingToGoForward"), "\(result)")
        }
    }

    @Test func aPushClearsTheForwardListAndCanGoForwardChangesWithPropertiesChanged() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let changes = try await fixture.signals(path: window, interface: .properties, member: "PropertiesChanged")
            _ = try await fixture.window(window, "GoBack")
            _ = try await first(changes, timeout: .seconds(10)) { signal in
                signal.arguments.count >= 2 && signal.arguments[1].keyedEntries["CanGoForward"] == .boolean(true)
            }
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            _ = try await first(changes, timeout: .seconds(10)) { signal in
                signal.arguments.count >= 2 && signal.arguments[1].keyedEntries["CanGoForward"] == .boolean(false)
            }
        }
    }

    @Test func theForwardListSurvivesAKillThroughTheJournal() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "9"])])
            _ = try await fixture.window(window, "GoBack")
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            #expect(state.contains(#""forward":["#))
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
            #expect(try await canGoForward(fixture, window))
            #expect(try await fixture.dbusSendVersion(window, "GoForward").version != nil)
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
        }
    }

    @Test func theForwardListSurvivesARestartThroughTheSnapshot() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("cover"), .string("about"), .noParams])
            _ = try await fixture.window(window, "GoBack")
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            try await fixture.restart()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
            #expect(try await fixture.dbusSendVersion(window, "GoForward").version != nil)
            #expect(try await fixture.routeSummaries(window) == ["cover about"])
        }
    }
}

extension GoForwardBusTests {
    @Test func aRendererReportedDismissalIsRememberedForGoForward() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("cover"), .string("about"), .noParams])
            let cover = try await fixture.modelID(window, where: "screen", is: "about")
            #expect(try await fixture.dbusSendVersion(window, "ReportDismissed", ["uint64:\(cover)"]).version != nil)
            #expect(try await canGoForward(fixture, window))
            #expect(try await fixture.dbusSendVersion(window, "GoForward").version != nil)
            #expect(try await fixture.routeSummaries(window) == ["cover about"])
        }
    }

}
