import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

struct SessionDeepLinkTests {
    @Test func detailLinkPushesOnTheHomeTab() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        try session.execute(window: number, command: .tabsSelectItem("settings"))
        let outcome = try session.openURL("navsession-demo://detail/42")
        #expect(outcome.window == number)
        #expect(outcome.deepLink == .applied(route: "detail"))
        let window = try session.window(number)
        #expect(window.selectedTab == "home")
        #expect(window.graph.routes == [.push("detail", params: ["id": "42"])])
        #expect(window.graph.model(window.graph.activeModelID)?.params == ["id": "42"])
    }

    @Test func profileLinkSelectsSettingsAndPassesEdit() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        try session.openURL("navsession-demo://settings/profile?edit=1")
        let window = try session.window(number)
        #expect(window.selectedTab == "settings")
        #expect(window.graph.model(window.graph.activeModelID)?.screen == "profile")
        #expect(window.graph.model(window.graph.activeModelID)?.params == ["edit": "true"])
    }

    @Test func linkWhileLoggedOutWaitsForLogin() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let outcome = try session.openURL("navsession-demo://detail/42")
        #expect(outcome.deepLink == .deferred(route: "detail", state: "main"))
        let window = try session.window(number)
        #expect(window.currentState == "login")
        #expect(window.pendingDeepLink == "navsession-demo://detail/42")
        let login = try session.execute(window: number, command: .switchModel(.screen("main")))
        #expect(login.changes(of: number).count == 2)
        #expect(window.graph.routes == [.push("detail", params: ["id": "42"])])
        #expect(window.pendingDeepLink == nil)
    }

    @Test func linkWithNoWindowOpensTheSceneLoggedOut() throws {
        let session = try demoSession()
        let outcome = try session.openURL("navsession-demo://detail/7")
        let number = try #require(outcome.window)
        #expect(outcome.openedWindows == [number])
        #expect(outcome.deepLink == .deferred(route: "detail", state: "main"))
    }

    @Test func unknownRouteIsTyped() throws {
        let session = try demoSession()
        do {
            try session.openURL("navsession-demo://nowhere")
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "deepLink.unknownRoute")
        }
    }

    @Test func badParameterIsTyped() throws {
        let session = try demoSession()
        do {
            try session.openURL("navsession-demo://detail/abc")
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "deepLink.badParameterValue")
        }
    }

    @Test func tooLongURLExceedsLimits() throws {
        let session = try demoSession()
        let url = "navsession-demo://detail/1?x=" + String(repeating: "a", count: 9000)
        do {
            try session.openURL(url)
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
        }
    }

    @Test func externalURLIsAnnouncedOnTheActiveWindow() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let before = try session.window(number).version
        let outcome = try session.openURL("https://example.org/a")
        #expect(outcome.deepLink == .external)
        #expect(outcome.events == [.externalURL(number, "https://example.org/a")])
        #expect(try session.window(number).version == before)
    }

    @Test func openURLCommandEffectFollowsTheDeepLink() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.execute(window: number, command: .openURL("navsession-demo://settings/about"))
        #expect(outcome.changes(of: number).count == 2)
        #expect(try session.window(number).activeScreen == "about")
    }

    @Test func multiStepDeepLinkHasPlannedSteps() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.openURL("navsession-demo://detail/5/edit")
        // The graph's own path: push the detail, then present the editor's stacked sheet (one layer per step).
        let steps = outcome.steps(of: number)
        guard steps.count == 2, case .push(_, let pushed, _) = steps[0], case .present(_, _, .sheet, let nested, _) = steps[1] else {
            Issue.record("\(steps)"); return
        }
        #expect(pushed.count == 1 && nested.isEmpty)
    }

    @Test func waitingLinkOpensANewWindowEachTime() throws {
        let session = try demoSession()
        let first = try session.openURL("navsession-demo://waiting?reason=sync")
        let second = try session.openURL("navsession-demo://waiting")
        #expect(first.window != second.window)
        #expect(session.windows.map(\.scene) == ["waiting", "waiting"])
        let root = try session.window(#require(first.window)).graph.root
        #expect(root?.params == ["reason": "sync"])
    }
}
