import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Entry conditions on deep-link routes through the bus with dbus-send: the demo's `account` route requires
/// `main` and redirects to a fresh login, its `help` route requires nothing although the scene's `deepLinkState`
/// is `main`.
@Suite struct DeepLinkEntryConditionBusTests {
    static let account = "navsession-demo://account"

    func openURL(_ fixture: DaemonFixture, _ url: String) async throws -> String {
        let result = try await fixture.run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)",
                          "/org/navsession/Session1", "org.navsession.Session1.OpenURL", "string:\(url)"])
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    func pending(_ fixture: DaemonFixture, _ window: String) async throws -> String {
        try await fixture.windowProperty(window, "PendingNavigation").string ?? "?"
    }

    @Test func aRouteLinkWhileLoggedOutRunsTheRoutesRedirectAndWaits() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let before = try await fixture.version(window)
            _ = try await openURL(fixture, Self.account)
            #expect(try await fixture.version(window) == before + 1, "the redirect is one change")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            #expect(try await pending(fixture, window) == #"{"state":"main","url":"navsession-demo://account"}"#)
            #expect(try await fixture.windowProperty(window, "PendingDeepLink") == .string(Self.account))
        }
    }

    @Test func theWaitingRouteLinkLandsAfterLoggingIn() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await openURL(fixture, Self.account)
            _ = try await SavedBranchBusTests.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("account"))
            #expect(try await pending(fixture, window) == "")
        }
    }

    @Test func theWaitingRouteLinkSurvivesADaemonRestart() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await openURL(fixture, Self.account)
            try await fixture.restart()
            #expect(try await pending(fixture, window) == #"{"state":"main","url":"navsession-demo://account"}"#)
            _ = try await SavedBranchBusTests.send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("account"))
        }
    }

    @Test func aRouteRequiringNothingLandsWhileLoggedOut() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await openURL(fixture, "navsession-demo://help")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("about"))
            #expect(try await pending(fixture, window) == "")
        }
    }
}
