import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// End-to-end flows of the demo application (Docs/manifest.md §3), driven over D-Bus.
@Suite(.serialized) struct DemoFlowTests {
    static func routes(_ fixture: DaemonFixture, _ window: String) async throws -> [String] {
        try await Window1MethodTests.routeScreens(fixture, window)
    }

    @Test func logInPushDetailEditorSheetAlertThenDismissChain() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            try await fixture.logIn(window)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "42"])])
            #expect(
                try await fixture.windowProperty(window, "Routes")
                    == .string(#"[{"style":"push","screen":"detail","params":{"id":"42"}},{"style":"sheet","screen":"editor","params":{"id":"42"},"withNavigation":true}]"#))
            _ = try await fixture.window(window, "PresentAlert", [.string("discardChanges"), .string(""), .strings([])])
            let alert = try #require(try await fixture.models(window).first { ($0["kind"] as? String) == "alert" })
            let actions = (alert["dialog"] as? [String: Any])?["actions"] as? [[String: Any]]
            #expect(actions?.compactMap { $0["id"] as? String } == ["discard", "keep"], "the manifest's alert")
            _ = try await fixture.window(window, "Dismiss")
            #expect(try await fixture.models(window).allSatisfy { ($0["kind"] as? String) != "alert" })
            #expect(try await Self.routes(fixture, window) == ["detail", "editor"])
            _ = try await fixture.window(window, "Dismiss")
            #expect(try await Self.routes(fixture, window) == ["detail"])
            // With nothing presented, Dismiss resolves to the tabs (the nearest presenter, brief §2), above the
            // pushed detail, so popping it is Hide's job.
            _ = try await fixture.window(window, "Hide")
            #expect(try await Self.routes(fixture, window) == [])
            let error = await fixture.error { try await fixture.window(window, "Dismiss") }
            #expect(error?.name.rawValue == "org.navsession.Error.NothingToDismiss")
        }
    }

    @Test func logoutDialogActionReturnsToLoginAndKeepsTheMainState() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            _ = try await fixture.window(
                window, "PresentConfirmationDialog", [.string("logout"), .string(""), .strings([]), .string("")])
            let dialogModel = try #require(try await fixture.models(window).first { ($0["kind"] as? String) == "confirmationDialog" })
            let dialog = try #require((dialogModel["id"] as? NSNumber)?.uint64Value)
            #expect((dialogModel["dialog"] as? [String: Any])?["title"] as? String == "Log out?")
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let result = try await fixture.run(
                "busctl", ["--user", "call", DaemonFixture.name, window, "org.navsession.Window1", "ReportActionChosen",
                           "ts", "\(dialog)", "logout"])
            #expect(result.status == 0, "\(result)")
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            let finished = changed.arguments[5].arrayElements?.compactMap(\.uint64) ?? []
            // The demo keeps `main` when it logs out (its savedStates): the dialog finishes, the detail is kept.
            #expect(finished == [dialog], "\(finished)")
            let saved = try #require(try await fixture.models(window).first?["saved"] as? [[String: Any]])
            #expect(saved.first?["screen"] as? String == "main")
            #expect(try await fixture.models(window).contains { ($0["id"] as? NSNumber)?.uint64Value == detail })
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string(""))
        }
    }

    @Test func onboardingCoverStackPushesThreeScreensAndDismisses() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.window(window, "Present", [.string("cover+stack"), .string("onboarding1"), .noParams])
            _ = try await fixture.window(window, "StackAppend", [.string("onboarding2"), .noParams])
            _ = try await fixture.window(window, "StackAppend", [.string("onboarding3"), .noParams])
            #expect(
                try await fixture.window(window, "GetRoutes")
                    == [.string(#"[{"style":"cover","screen":"onboarding1","withNavigation":true},{"style":"push","screen":"onboarding2"},{"style":"push","screen":"onboarding3"}]"#)])
            #expect(try await fixture.windowProperty(window, "Title") == .string("All set"))
            _ = try await fixture.window(window, "Dismiss")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            #expect(try await fixture.window(window, "GetRoutes") == [.string("[]")])
        }
    }

    @Test func waitingIsMultiInstanceAndMainIsSingleton() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            #expect(try await fixture.openWindow() == main)
            let first = try await fixture.session("OpenWindow", [.string("waiting"), .params(["reason": "a"])])
            let second = try await fixture.session("OpenWindow", [.string("waiting"), .params(["reason": "b"])])
            #expect(first != second)
            #expect(try await fixture.session("ListWindows") == [.array(.objectPath, [try .path(main)] + first + second)])
            let path = try #require(second.first?.objectPath?.rawValue)
            #expect(try await fixture.windowProperty(path, "Scene") == .string("waiting"))
            let models = try await fixture.models(path)
            #expect(models.first?["params"] as? [String: String] == ["reason": "b"], "\(models)")
        }
    }

    @Test func deepLinkWithNoWindowOpensMainAndLandsAfterLogIn() async throws {
        try await DaemonFixture.with { fixture in
            let reply = try await fixture.session("OpenURL", [.string("navsession-demo://settings/profile?edit=1")])
            let window = try #require(reply.first?.objectPath?.rawValue)
            #expect(try await fixture.windowProperty(window, "Scene") == .string("main"))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let version = try await fixture.logIn(window)
            // Two changes: the log-in, then the waiting link.
            let both = try await take(2, of: changes)
            #expect(both.map { $0.arguments[0] } == [.uint64(version - 1), .uint64(version)])
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("settings"))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
            let profile = try #require(try await fixture.models(window).first { ($0["screen"] as? String) == "profile" })
            #expect(profile["params"] as? [String: String] == ["edit": "true"])
        }
    }

    @Test func deepLinkWaitingInAWindowIsReplacedByANewerOne() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.session("OpenURL", [.string("navsession-demo://detail/42")])
            _ = try await fixture.session("OpenURL", [.string("navsession-demo://settings/about")])
            try await fixture.logIn(window)
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("settings"))
            #expect(try await Self.routes(fixture, window) == ["about"])
        }
    }

    @Test func waitingDeepLinkAlwaysOpensANewWindowWithTheReason() async throws {
        try await DaemonFixture.with { fixture in
            let one = try await fixture.session("OpenURL", [.string("navsession-demo://waiting?reason=sync")])
            let two = try await fixture.session("OpenURL", [.string("navsession-demo://waiting?reason=sync")])
            #expect(one != two)
            let path = try #require(two.first?.objectPath?.rawValue)
            #expect(try await fixture.windowProperty(path, "Scene") == .string("waiting"))
            #expect(try await fixture.models(path).first?["params"] as? [String: String] == ["reason": "sync"])
        }
    }

    @Test func applicationActivateOpensTheDefaultSceneOnce() async throws {
        try await DaemonFixture.with { fixture in
            for _ in 0..<2 {
                let result = try await fixture.run(
                    "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                              "--method", "org.freedesktop.Application.Activate", "{}"])
                #expect(result.status == 0, "\(result)")
            }
            let windows = try #require(try await fixture.session("ListWindows").first?.arrayElements)
            try #require(windows.count == 1)
            #expect(try await fixture.windowProperty(try #require(windows[0].objectPath?.rawValue), "Scene") == .string("main"))
        }
    }

    @Test func applicationOpenLandsADeepLinkInTheLoggedInWindow() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.Open", "['navsession-demo://detail/42?edit=1']", "{}"])
            #expect(result.status == 0, "\(result)")
            let detail = try #require(try await fixture.models(window).first { ($0["screen"] as? String) == "detail" })
            #expect(detail["params"] as? [String: String] == ["id": "42", "edit": "true"])
            let bad = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.Open", "['navsession-demo://nowhere']", "{}"])
            #expect(bad.stderr.contains("org.navsession.Error.UnknownRoute"), "\(bad)")
        }
    }

    @Test func activateActionNewWindowOpensTheNamedScene() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.ActivateAction", "new-window", "[<'waiting'>]", "{}"])
            #expect(result.status == 0, "\(result)")
            let windows = try #require(try await fixture.session("ListWindows").first?.arrayElements)
            try #require(windows.count == 2, "\(windows)")
            #expect(windows[0] == (try .path(main)))
            #expect(try await fixture.windowProperty(try #require(windows[1].objectPath?.rawValue), "Scene") == .string("waiting"))
            let unknown = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.ActivateAction", "fly", "[]", "{}"])
            #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.NotSupported"), "\(unknown)")
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.count == 2)
        }
    }
}
