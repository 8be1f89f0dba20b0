import Foundation
import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

/// Entry conditions on deep-link routes (Docs/guards.md): the demo's `account` route requires `main` and redirects
/// to a fresh login; its `help` route requires nothing (`"requires": {}`), overriding the scene's `deepLinkState`.
struct DeepLinkEntryConditionTests {
    static let account = "navsession-demo://account"

    @Test func theDemoDeclaresTheRoutesConditions() throws {
        let manifest = try Manifest.demo()
        let redirect = [BatchCommand(.switchModel(.screen("login")))]
        #expect(manifest.routeConditions["account"] == DeepLinkEntryCondition(state: "main", redirect: redirect))
        #expect(manifest.routeConditions["help"] == DeepLinkEntryCondition(state: nil))
        #expect(manifest.routeConditions["detail"] == nil)
    }

    @Test func aLinkWhoseRouteConditionDoesNotHoldRunsTheRedirectAndWaits() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let login = try session.window(number).graph.activeModelID
        let outcome = try session.openURL(Self.account)
        #expect(outcome.deepLink == .deferred(route: "account", state: "main"))
        let window = try session.window(number)
        #expect(window.pending == .deepLink(Self.account))
        #expect(window.activeScreen == "login")
        #expect(window.graph.activeModelID != login, "the redirect shows a fresh login")
        let cause = try #require(EntryGuardTests.causes(outcome, number).first)
        #expect(cause.contains(#""redirected":{"state":"main","url":"navsession-demo://account"}"#), "\(cause)")
    }

    @Test func theWaitingLinkLandsByItselfOnceTheRouteConditionHolds() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.openURL(Self.account)
        try session.execute(window: number, command: .switchModel(.screen("main")))
        let window = try session.window(number)
        #expect(window.activeScreen == "account")
        #expect(window.pending == nil)
    }

    @Test func aRouteThatRequiresNothingWorksLoggedOutDespiteTheScenesDeepLinkState() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let outcome = try session.openURL("navsession-demo://help")
        #expect(outcome.deepLink == .applied(route: "help"))
        #expect(try session.window(number).activeScreen == "about")
        #expect(try session.window(number).pending == nil)
    }

    @Test func aRouteWithoutItsOwnConditionStillWaitsForTheScenesDeepLinkState() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let outcome = try session.openURL("navsession-demo://settings/about")
        #expect(outcome.deepLink == .deferred(route: "about", state: "main"))
        #expect(try session.window(number).activeScreen == "login")
    }

    @Test func aLinkWhoseRouteConditionHoldsAppliesDirectly() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.openURL(Self.account)
        #expect(outcome.deepLink == .applied(route: "account"))
        #expect(try session.window(number).activeScreen == "account")
    }

    @Test func aLinkThatOpensTheWindowRunsTheRouteRedirectInIt() throws {
        let session = try demoSession()
        let outcome = try session.openURL(Self.account)
        let number = try #require(outcome.window)
        #expect(outcome.deepLink == .deferred(route: "account", state: "main"))
        #expect(try session.window(number).pending == .deepLink(Self.account))
        #expect(EntryGuardTests.causes(outcome, number).first?.contains(#""redirected""#) == true)
    }

    @Test func thePendingNavigationNamesTheRoutesState() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.openURL(Self.account)
        #expect(try session.pendingNavigationJSON(window: number) == #"{"state":"main","url":"navsession-demo://account"}"#)
    }

    @Test func aLinkWaitingForItsRouteConditionSurvivesARestart() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            number = try #require(session.openWindow(scene: "main").window)
            try session.openURL(Self.account)
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(number).pending == .deepLink(Self.account))
        try restored.execute(window: number, command: .switchModel(.screen("main")))
        #expect(try restored.window(number).activeScreen == "account")
    }
}
