import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Saved branches through the bus, on the demo (which keeps its `main` state when it logs out).
@Suite struct SavedBranchBusTests {
    static let detachedModel = "org.navsession.Error.DetachedModel"

    /// Calls a Window1 method with `dbus-send`, requiring success; returns its trimmed literal reply.
    @discardableResult
    static func send(_ fixture: DaemonFixture, _ window: String, _ member: String, _ arguments: [String]) async throws
        -> String
    {
        let result = try await fixture.run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", window,
                          "org.navsession.Window1.\(member)"] + arguments)
        try #require(result.status == 0, "\(member): \(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func routes(_ fixture: DaemonFixture, _ window: String) async throws -> String {
        try #require(try await fixture.window(window, "GetRoutes").first?.string)
    }

    /// Logs in, pushes `detail` on the home tab and `profile` on the settings tab (dbus-send); returns their ids.
    @discardableResult
    static func logInAndPush(_ fixture: DaemonFixture, _ window: String) async throws -> (detail: UInt64, profile: UInt64) {
        try await send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
        try await send(fixture, window, "StackAppend", ["string:detail", "dict:string:string:id,42"])
        try await send(fixture, window, "TabsSelectItem", ["string:settings"])
        try await send(fixture, window, "StackAppend", ["string:profile", "dict:string:string:"])
        return (
            try await fixture.modelID(window, where: "screen", is: "detail"),
            try await fixture.modelID(window, where: "screen", is: "profile"))
    }

    static func logOut(_ fixture: DaemonFixture, _ window: String) async throws {
        try await send(fixture, window, "SwitchModel", ["string:login", "dict:string:string:"])
    }

    @Test func loggingOutAndInBringsBackTheSameIDsAndRoutesWithDbusSend() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let (detail, profile) = try await Self.logInAndPush(fixture, window)
            let routes = try await Self.routes(fixture, window)
            try await Self.logOut(fixture, window)
            #expect(try await Self.routes(fixture, window) != routes)
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await Self.routes(fixture, window) == routes)
            #expect(try await fixture.modelID(window, where: "screen", is: "detail") == detail)
            #expect(try await fixture.modelID(window, where: "screen", is: "profile") == profile)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
        }
    }

    @Test func getStateListsTheKeptBranchOnTheSwitchedRoot() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await Self.logInAndPush(fixture, window)
            try await Self.logOut(fixture, window)
            let models = try await fixture.models(window)
            let root = try #require(models.first)
            let saved = try #require(root["saved"] as? [[String: Any]])
            #expect(saved.count == 1)
            #expect(saved.first?["screen"] as? String == "main")
            let mainID = try #require(saved.first?["model"] as? NSNumber)
            let main = try #require(models.first { ($0["id"] as? NSNumber) == mainID })
            let attachment = try #require(main["attachment"] as? [String: Any])
            #expect(attachment["type"] as? String == "saved")
            let tree = try #require(try await fixture.window(window, "GetTree").first?.string)
            #expect(tree.contains("(saved main)"), "\(tree)")
        }
    }

    @Test func clearingTheSavedStateWithGdbusLogsInFresh() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let (detail, _) = try await Self.logInAndPush(fixture, window)
            try await Self.logOut(fixture, window)
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.ClearSavedState", "main"])
            #expect(result.status == 0, "\(result)")
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await Self.routes(fixture, window) == "[]")
            let models = try await fixture.models(window)
            #expect(!models.contains { ($0["id"] as? NSNumber)?.uint64Value == detail })
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
        }
    }

    @Test func switchModelWithSaveStateFalseFinishesTheMainState() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await Self.logInAndPush(fixture, window)
            try await Self.send(
                fixture, window, "SwitchModelWith", ["string:login", "dict:string:string:", "string:false", "string:"])
            #expect(try await fixture.models(window).first?["saved"] == nil)
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await Self.routes(fixture, window) == "[]")
        }
    }

    @Test func switchModelWithRefusesAFlagThatIsNotABoolean() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let error = await fixture.error {
                try await fixture.window(
                    window, "SwitchModelWith", [.string("main"), .noParams, .string("yes"), .string("")])
            }
            #expect(error?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }

    @Test func aCommandFromAKeptModelFailsWithDetachedModel() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let (detail, _) = try await Self.logInAndPush(fixture, window)
            try await Self.logOut(fixture, window)
            let error = await fixture.error { try await fixture.window(window, "DismissAt", [.uint64(detail)]) }
            #expect(error?.name.rawValue == Self.detachedModel)
            #expect(error?.message.contains("keeps for 'main'") == true, "\(String(describing: error))")
        }
    }

    @Test func keptModelsGetSuspendedAndResumedMessages() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let (detail, _) = try await Self.logInAndPush(fixture, window)
            let messages = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Message")
            try await Self.logOut(fixture, window)
            let suspended = try await first(messages, timeout: .seconds(10)) {
                $0.arguments.first?.uint64 == detail && $0.arguments[1].string == "suspended"
            }
            #expect(suspended.arguments[1].string == "suspended")
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            let resumed = try await first(messages, timeout: .seconds(10)) {
                $0.arguments.first?.uint64 == detail && $0.arguments[1].string == "resumed"
            }
            #expect(resumed.arguments[1].string == "resumed")
        }
    }

    @Test func theSwitchStepSaysTheBranchWasSavedAndRestored() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await Self.logInAndPush(fixture, window)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            try await Self.logOut(fixture, window)
            let out = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(out.arguments[6].string?.contains(#""saved":true,"restored":false"#) == true, "\(out)")
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            let back = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(back.arguments[6].string?.contains(#""saved":false,"restored":true"#) == true, "\(back)")
        }
    }

    @Test func theKeptBranchSurvivesADaemonRestart() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let (detail, profile) = try await Self.logInAndPush(fixture, window)
            let routes = try await Self.routes(fixture, window)
            try await Self.logOut(fixture, window)
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            try await fixture.restart()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await Self.routes(fixture, window) == routes)
            #expect(try await fixture.modelID(window, where: "screen", is: "detail") == detail)
            #expect(try await fixture.modelID(window, where: "screen", is: "profile") == profile)
        }
    }

    @Test func theKeptBranchSurvivesAKillThroughTheJournal() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let (detail, _) = try await Self.logInAndPush(fixture, window)
            let routes = try await Self.routes(fixture, window)
            try await Self.logOut(fixture, window)
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
            try await Self.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await Self.routes(fixture, window) == routes)
            #expect(try await fixture.modelID(window, where: "screen", is: "detail") == detail)
        }
    }
}
