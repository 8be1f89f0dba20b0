import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Guards decided by another process, at the session layer: the manifest's `guards`, registrations and the
/// commit gate's decisions (the bus side is GuardProviderBusTests).
struct GuardProviderSessionTests {
    /// The demo with its `account` guard replaced by `guard`.
    func manifest(_ guardJSON: String) throws -> Manifest {
        let demo = Manifest.demoJSON
        let start = try #require(demo.range(of: #""guards": {"#))
        let end = try #require(demo.range(of: #""scenes": ["#))
        return try Manifest(json: demo.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: #""guards": "# + guardJSON + ",\n"))
    }

    func session(_ manifest: Manifest) throws -> Session {
        try Session(manifest: manifest, store: nil)
    }

    func settings(_ session: Session) throws -> WindowNumber {
        let number = try loggedInMain(session)
        try session.execute(window: number, command: .tabsSelectItem("settings"))
        return number
    }

    @Test func theDemoDeclaresAnAccountGuardOverProfileThatAllowsWithoutAProvider() throws {
        let demo = try Manifest.demo()
        #expect(demo.guards["account"] == GuardDeclaration(screens: ["profile"], onAbsent: .allow, onTimeout: .deny))
        let session = try demoSession()
        let number = try settings(session)
        try session.execute(window: number, command: .stackAppend(.screen("profile")))
        #expect(try session.window(number).activeScreen == "profile")
    }

    @Test func aGuardOverAnUndeclaredScreenIsRejectedWithItsKey() {
        #expect(throws: ManifestError.unknownScreen(key: "guards.g.covers.screens[0]", screen: "profil")) {
            try manifest(#"{"g": {"covers": {"screens": ["profil"]}}}"#)
        }
    }

    @Test func aTimeoutOutsideItsBoundsIsRejected() {
        for timeout in [0, 10_001] {
            #expect(throws: ManifestError.self) { try manifest(#"{"g": {"covers": {"screens": ["profile"]}, "timeoutMs": \#(timeout)}}"#) }
        }
    }

    @Test func anUnknownKeyInAGuardIsRejected() {
        #expect(throws: ManifestError.self) { try manifest(#"{"g": {"covers": {"screens": ["profile"]}, "onabsent": "deny"}}"#) }
    }

    @Test func guardsSurviveTheJSONRoundTrip() throws {
        let declared = try manifest(#"{"g": {"covers": {"screens": ["profile", "about"]}, "when": ["leave"], "timeoutMs": 50, "onAbsent": "deny", "onTimeout": "allow"}}"#)
        #expect(try Manifest(json: declared.json()) == declared)
    }

    @Test func onAbsentDenyRefusesEnteringACoveredScreenAndChangesNothing() throws {
        let session = try session(try manifest(#"{"g": {"covers": {"screens": ["profile"]}, "onAbsent": "deny"}}"#))
        let number = try settings(session)
        let before = try session.window(number).version
        #expect(throws: SessionError.navigation(.denied(guard: "g", reason: "no provider is registered"))) {
            try session.execute(window: number, command: .stackAppend(.screen("profile")))
        }
        #expect(try session.window(number).version == before)
    }

    @Test func aGuardOnLeaveOnlyLetsTheScreenBeEnteredButNotLeft() throws {
        let session = try session(try manifest(#"{"g": {"covers": {"screens": ["profile"]}, "when": ["leave"], "onAbsent": "deny"}}"#))
        let number = try settings(session)
        try session.execute(window: number, command: .stackAppend(.screen("profile")))
        #expect(throws: SessionError.self) { try session.execute(window: number, command: .stackDropLast(1)) }
        #expect(try session.window(number).activeScreen == "profile")
    }

    @Test func aRegisteredProviderTurnsACoveredChangeIntoAQuestion() throws {
        let session = try session(try Manifest.demo())
        let number = try settings(session)
        try session.registerGuard("account", client: ":1.7")
        let before = try session.window(number).version
        let asked = session.change(asking: true, window: number) {
            try session.execute(window: number, command: .stackAppend(.screen("profile")))
        }
        guard case .asks(let question) = asked.kind else {
            Issue.record("the change was not turned into a question: \(asked.kind)")
            return
        }
        #expect(question.guardName == "account" && question.provider == ":1.7" && question.version == before)
        #expect(question.enteredJSON.contains(#""screen":"profile""#) && question.leftJSON == "[]")
        #expect(try session.window(number).version == before)
        // Allowed at that version, the change applies.
        let allowed = session.change(asking: true, window: number, approvals: ["account": before]) {
            try session.execute(window: number, command: .stackAppend(.screen("profile")))
        }
        guard case .applied = allowed.kind else {
            Issue.record("the allowed change did not apply: \(allowed.kind)")
            return
        }
        #expect(try session.window(number).activeScreen == "profile")
    }

    @Test func aChangeNobodyWaitsForGetsTheGuardsOnTimeout() throws {
        let session = try session(try Manifest.demo())
        let number = try settings(session)
        try session.registerGuard("account", client: ":1.7")
        // Outside `asking` (no caller waits): onTimeout deny.
        #expect(throws: SessionError.navigation(.denied(guard: "account", reason: "the change cannot wait for the provider's answer"))) {
            try session.execute(window: number, command: .stackAppend(.screen("profile")))
        }
    }

    /// A guard refusing a window's close (its provider cannot be asked: `onTimeout` deny) leaves the window open
    /// and usable, in memory as in its snapshot: the refused close is not half-applied.
    @Test func aCloseAGuardRefusesLeavesTheWindowOpen() throws {
        let session = try session(try Manifest.demo())
        let number = try settings(session)
        try session.execute(window: number, command: .stackAppend(.screen("profile")))
        try session.registerGuard("account", client: ":1.7")
        #expect(throws: SessionError.self) { try session.dismissWindow(number) }
        #expect(try session.window(number).graph.isClosed == false)
        #expect(try session.window(number).graph.snapshot().isClosed == false)
        try session.execute(window: number, command: .present(.sheet(.screen("about"))))
        #expect(try session.window(number).activeScreen == "about")
    }

    @Test func aSecondProviderIsRefusedAndTheRegistrationGoesWithItsClient() throws {
        let session = try session(try Manifest.demo())
        try session.registerGuard("account", client: ":1.7")
        #expect(throws: SessionError.guardTaken("account", provider: ":1.7")) { try session.registerGuard("account", client: ":1.8") }
        #expect(throws: SessionError.unknownGuard("nope")) { try session.registerGuard("nope", client: ":1.8") }
        #expect(session.isTracking(client: ":1.7"))
        try session.clientVanished(uniqueName: ":1.7")
        #expect(session.guardRegistrations.isEmpty)
    }

    @Test func aChangeThatTouchesNoCoveredScreenIsNeverAsked() throws {
        let session = try session(try Manifest.demo())
        let number = try settings(session)
        try session.registerGuard("account", client: ":1.7")
        let result = session.change(asking: true, window: number) {
            try session.execute(window: number, command: .stackAppend(.screen("about")))
        }
        guard case .applied = result.kind else {
            Issue.record("a change no guard covers was not applied at once: \(result.kind)")
            return
        }
        #expect(try session.window(number).activeScreen == "about")
    }
}
