import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Entry guards on the demo through the bus with dbus-send: `account` requires state `main` and redirects to
/// `login`; the redirected change waits in `PendingNavigation` and completes after logging in.
@Suite struct EntryGuardBusTests {
    func send(_ fixture: DaemonFixture, _ window: String, _ member: String, _ arguments: [String] = []) async throws
        -> String
    {
        try await SavedBranchBusTests.send(fixture, window, member, arguments)
    }

    /// The version in a dbus-send literal reply (`uint64 5`).
    func version(_ reply: String) -> UInt64? { reply.split(whereSeparator: \.isWhitespace).last.flatMap { UInt64($0) } }

    func appendAccount(_ fixture: DaemonFixture, _ window: String) async throws -> String {
        try await send(fixture, window, "StackAppend", ["string:account", "dict:string:string:"])
    }

    func pending(_ fixture: DaemonFixture, _ window: String) async throws -> String {
        try await fixture.windowProperty(window, "PendingNavigation").string ?? "?"
    }

    @Test func stackAppendOfAGuardedScreenLoggedOutIsRedirectedAndWaits() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let before = try await fixture.version(window)
            let reply = try await appendAccount(fixture, window)
            #expect(version(reply) == before + 1, "the redirect's version: \(reply)")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            let pending = try await pending(fixture, window)
            #expect(pending.contains(#""screen":"account""#) && pending.contains(#""state":"main""#), "\(pending)")
            #expect(try await fixture.windowProperty(window, "PendingDeepLink") == .string(""))
        }
    }

    @Test func theRedirectedNavigationCompletesAfterLoggingIn() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await appendAccount(fixture, window)
            let before = try await fixture.version(window)
            let reply = try await send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            // Two changes, the login and the waiting navigation; the reply is the version after both.
            #expect(version(reply) == before + 2, "\(reply)")
            #expect(try await fixture.version(window) == before + 2)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("account"))
            #expect(try await pending(fixture, window) == "")
        }
    }

    @Test func theRedirectedNavigationSurvivesADaemonRestart() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await appendAccount(fixture, window)
            let pending = try await pending(fixture, window)
            try await fixture.restart()
            #expect(try await self.pending(fixture, window) == pending)
            _ = try await send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("account"))
        }
    }

    @Test func cancelPendingDropsTheRedirectedNavigation() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await appendAccount(fixture, window)
            _ = try await send(fixture, window, "CancelPending")
            #expect(try await pending(fixture, window) == "")
            _ = try await send(fixture, window, "SwitchModel", ["string:main", "dict:string:string:"])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
        }
    }

    @Test func checkAnswersEntryRefused() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.run(
                "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", window,
                              "org.navsession.Window1.Check",
                              #"string:[{"command":"stackAppend","models":[{"screen":"account"}]}]"#, "dict:string:string:"])
            #expect(result.status != 0 && result.stderr.contains("org.navsession.Error.EntryRefused"), "\(result)")
            #expect(try await pending(fixture, window) == "")
        }
    }

    @Test func aDeepLinkWhileLoggedOutShowsAsThePendingNavigation() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.session("OpenURL", [.string("navsession-demo://detail/7")])
            let pending = try await pending(fixture, window)
            #expect(pending == #"{"state":"main","url":"navsession-demo://detail/7"}"#, "\(pending)")
            _ = try await send(fixture, window, "CancelPending")
            #expect(try await fixture.windowProperty(window, "PendingDeepLink") == .string(""))
        }
    }
}
