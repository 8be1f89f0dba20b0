import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Synchronization
import Testing

/// One answer to "may this happen?" (Docs/guards.md): `Can*`, `Check` and the two-phase back (`BeginBack`,
/// `CommitBack`) say what the change itself would get from a guard provider, on the demo's `account` guard (it
/// covers `profile`, entering and leaving).
@Suite struct GuardVerdictBusTests {
    /// A logged-in main window on the settings tab with `profile` pushed (no provider yet: onAbsent allows).
    func profileWindow(_ fixture: DaemonFixture) async throws -> String {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
        _ = try await fixture.window(window, "StackAppend", [.string("profile"), .noParams])
        return window
    }

    /// Waits until window property `name` is `value`, from `PropertiesChanged` (subscribed before `trigger` runs).
    func waitFor(
        _ fixture: DaemonFixture, _ window: String, _ name: String, _ value: Value,
        after trigger: () async throws -> Void
    ) async throws {
        let changes = try await fixture.signals(path: window, interface: .properties, member: "PropertiesChanged")
        try await trigger()
        if try await fixture.windowProperty(window, name) == value { return }
        let seen = await changes.first(within: Liveness.bound(.seconds(30))) { signal in
            signal.arguments.count >= 2 && signal.arguments[1].keyedEntries[name] == value
        }
        #expect(seen != nil, "\(name) never became \(value)")
    }

    func refreshGuard(_ provider: TestGuardProvider) async throws {
        _ = try await provider.bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
            interface: try InterfaceName(DaemonFixture.sessionInterface), member: try MemberName("RefreshGuard"),
            arguments: [.string("account")], timeout: .seconds(10))
    }

    static let goBack = Value.string(#"[{"command":"goBack"}]"#)

    @Test func canGoBackCheckAndBeginBackFollowAProviderThatDeniesTheBackMove() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await profileWindow(fixture)
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(true))
            var provider: TestGuardProvider?
            // Registering makes the daemon ask about the back move in the background; the deny is kept.
            try await waitFor(fixture, window, "CanGoBack", .boolean(false)) {
                provider = try await TestGuardProvider.start(fixture, .deny("unsaved profile"))
            }
            let before = try await fixture.version(window)
            let check = await fixture.error { try await fixture.window(window, "Check", [Self.goBack, .noParams]) }
            #expect(check?.name.rawValue == "org.navsession.Error.Denied")
            #expect(check?.message.contains("unsaved profile") == true, "\(String(describing: check))")
            let begin = await fixture.error { try await fixture.window(window, "BeginBack") }
            #expect(begin?.name.rawValue == "org.navsession.Error.Denied")
            // Nothing moved.
            #expect(try await fixture.version(window) == before)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
            await provider?.stop()
        }
    }

    @Test func beginBackIsAnsweredFromTheKeptVerdictAndCommitBackCommitsWithoutAskingAgain() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await profileWindow(fixture)
            let provider = try await TestGuardProvider.start(fixture, .allow)
            // The background question about leaving profile (the back move).
            let probed = await provider.asked.first(within: Liveness.bound(.seconds(30))) { _ in
                provider.questions.withLock { $0.contains { $0[5].contains("\"profile\"") } }
            }
            #expect(probed != nil, "the provider was never asked about the back move")
            let version = try await fixture.version(window)
            let begin = try await fixture.window(window, "BeginBack")
            #expect(begin.first?.uint64 == version)
            let profile = try await fixture.modelID(window, where: "screen", is: "profile")
            #expect(begin.dropFirst().first?.arrayElements?.compactMap(\.uint64) == [profile])
            // Asked once in the background; again by BeginBack only if that answer was not kept yet.
            func leaving() -> Int { provider.questions.withLock { $0.filter { $0[5].contains("\"profile\"") }.count } }
            let asked = leaving()
            #expect(asked == 1 || asked == 2)
            let reply = try await fixture.window(window, "CommitBack", [.uint64(version)])
            #expect(reply.first?.uint64 == version + 1)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("settings"))
            #expect(leaving() == asked, "CommitBack asked again: \(provider.questions.withLock { $0 })")
            await provider.stop()
        }
    }

    @Test func commitBackOntoAWindowThatChangedSinceTheGestureBeganChangesNothing() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await profileWindow(fixture)
            let version = try #require(try await fixture.window(window, "BeginBack").first?.uint64)
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            let error = await fixture.error { try await fixture.window(window, "CommitBack", [.uint64(version)]) }
            #expect(error?.name.rawValue == "org.navsession.Error.VersionMismatch")
            #expect(try await fixture.version(window) == version + 1)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("about"))
        }
    }

    @Test func refreshGuardMakesTheDaemonAskAgainAndCanGoBackFollowsTheNewAnswer() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await profileWindow(fixture)
            let answer = TestGuardProvider.CurrentAnswer()
            let provider = try await TestGuardProvider.start(fixture, .current(answer))
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(true))
            try await waitFor(fixture, window, "CanGoBack", .boolean(false)) {
                answer.verdict.withLock { $0 = "the profile has unsaved changes" }
                try await refreshGuard(provider)
            }
            try await waitFor(fixture, window, "CanGoBack", .boolean(true)) {
                answer.verdict.withLock { $0 = "allow" }
                try await refreshGuard(provider)
            }
            #expect(try await fixture.window(window, "BeginBack").first?.uint64 == (try await fixture.version(window)))
            await provider.stop()
        }
    }

    @Test func onlyTheProviderMayRefreshItsGuard() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let provider = try await TestGuardProvider.start(fixture, .allow)
            let other = await fixture.error { try await fixture.session("RefreshGuard", [.string("account")]) }
            #expect(other?.name.rawValue == "org.freedesktop.DBus.Error.AccessDenied")
            let unknown = await fixture.error { try await fixture.session("RefreshGuard", [.string("nope")]) }
            #expect(unknown?.name.rawValue == "org.navsession.Error.UnknownGuard")
            await provider.stop()
        }
    }

    @Test func canGoForwardIsFalseWhileAProviderDeniesReenteringTheRoute() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await profileWindow(fixture)
            _ = try await fixture.window(window, "GoBack")
            #expect(try await fixture.windowProperty(window, "CanGoForward") == .boolean(true))
            var provider: TestGuardProvider?
            try await waitFor(fixture, window, "CanGoForward", .boolean(false)) {
                provider = try await TestGuardProvider.start(fixture, .deny("no profile today"))
            }
            let error = await fixture.error {
                try await fixture.window(window, "Check", [.string(#"[{"command":"goForward"}]"#), .noParams])
            }
            #expect(error?.name.rawValue == "org.navsession.Error.Denied")
            await provider?.stop()
        }
    }

    @Test func checkWaitsForTheProvidersAnswerLikeTheChangeAndSendsNoSignal() async throws {
        try await DaemonFixture.with(manifest: TestGuardProvider.longDeadline) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            let provider = try await TestGuardProvider.start(fixture, .deny("not now"))
            let decisions = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "GuardDecided")
            let push = Value.string(#"[{"command":"stackAppend","models":[{"screen":"profile"}]}]"#)
            let error = await fixture.error { try await fixture.window(window, "Check", [push, .noParams]) }
            #expect(error?.name.rawValue == "org.navsession.Error.Denied")
            #expect(error?.message.contains("not now") == true)
            #expect(provider.questionCount >= 1)
            // The change itself is asked again and announced.
            let applied = await fixture.error { try await fixture.window(window, "Apply", [push, .noParams]) }
            #expect(applied?.name.rawValue == "org.navsession.Error.Denied")
            let signal = await decisions.first(within: Liveness.bound(.seconds(30))) { _ in true }
            #expect(signal?.arguments.first?.string == "account")
            await provider.stop()
        }
    }
}
