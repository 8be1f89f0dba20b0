import NavigationCore
import Foundation
import Logging
import Testing

@testable import NavigationSession

/// Entry guards and redirects on the demo: `account` requires state `main` and redirects to `login`.
struct EntryGuardTests {
    static let appendAccount = [BatchCommand(.stackAppend(.screen("account")))]

    static func causes(_ outcome: SessionOutcome, _ number: WindowNumber) -> [String] {
        outcome.events.compactMap { if case .changed(number, _, _, let cause) = $0 { cause } else { nil } }
    }

    @Test func enteringAGuardedScreenLoggedOutRunsTheRedirectAndWaits() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let outcome = try session.apply(window: number, batch: Self.appendAccount)
        let window = try session.window(number)
        #expect(window.activeScreen == "login")
        #expect(!window.graph.snapshot().models.contains { $0.screen == "account" })
        #expect(window.pending == .commands(Self.appendAccount, screen: "account", state: "main"))
        let cause = try #require(Self.causes(outcome, number).first)
        #expect(cause.contains(#""redirected":{"commands":[{"command":"stackAppend""#), "\(cause)")
        #expect(cause.hasPrefix(#"{"commands":[{"command":"switchModel""#), "\(cause)")
    }

    @Test func theWaitingNavigationCompletesAfterLoggingIn() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.apply(window: number, batch: Self.appendAccount)
        let login = try session.execute(window: number, command: .switchModel(.screen("main")))
        let window = try session.window(number)
        #expect(window.activeScreen == "account")
        #expect(window.pending == nil)
        let causes = Self.causes(login, number)
        #expect(causes.count == 2)
        #expect(causes.last?.contains(#""resumed":{"commands""#) == true, "\(causes)")
    }

    @Test func aGuardedScreenEntersDirectlyWhenTheConditionHolds() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        try session.apply(window: number, batch: Self.appendAccount)
        #expect(try session.window(number).activeScreen == "account")
        #expect(try session.window(number).pending == nil)
    }

    @Test func aBatchThatLogsInAndEntersIsNotRedirected() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.apply(window: number, batch: [BatchCommand(.switchModel(.screen("main")))] + Self.appendAccount)
        #expect(try session.window(number).activeScreen == "account")
    }

    @Test func aNewerRedirectedNavigationReplacesTheOlder() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.apply(window: number, batch: Self.appendAccount)
        let second = [BatchCommand(.stackAppend(.screen("account"))), BatchCommand(.stackAppend(.screen("about")))]
        try session.apply(window: number, batch: second)
        #expect(try session.window(number).pending == .commands(second, screen: "account", state: "main"))
        try session.openURL("navsession-demo://detail/3")
        #expect(try session.window(number).pendingDeepLink == "navsession-demo://detail/3")
    }

    @Test func cancelPendingDropsTheWaitingNavigation() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.apply(window: number, batch: Self.appendAccount)
        try session.cancelPending(window: number)
        #expect(try session.window(number).pending == nil)
        try session.execute(window: number, command: .switchModel(.screen("main")))
        #expect(try session.window(number).activeScreen == "home")
    }

    @Test func aDryRunRefusesWithEntryRefused() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        #expect(throws: SessionError.navigation(.entryRefused(screen: "account", state: "main", actual: "login"))) {
            try session.dryRun(window: number, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"account"}]}]"#)
        }
        #expect(try session.window(number).pending == nil)
    }

    @Test func aPendingNavigationSurvivesRestoreFromTheJournal() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            number = try #require(session.openWindow(scene: "main").window)
            try session.apply(window: number, batch: Self.appendAccount)
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(number).pending == .commands(Self.appendAccount, screen: "account", state: "main"))
        try restored.execute(window: number, command: .switchModel(.screen("main")))
        #expect(try restored.window(number).activeScreen == "account")
    }

    @Test func aPendingNavigationSurvivesRestoreFromASnapshot() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        do {
            let session = try demoSession(directory: directory, compactionInterval: 1)
            number = try #require(session.openWindow(scene: "main").window)
            try session.apply(window: number, batch: Self.appendAccount)
            try session.execute(window: number, command: .stackAppend(.screen("about")))
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(number).pending == .commands(Self.appendAccount, screen: "account", state: "main"))
    }

    @Test func aRedirectThatFailsFailsTheCallAndNothingWaits() throws {
        let session = try demoSession()
        // The waiting scene has no switched root: the condition fails and so does the redirect (switchModel).
        let number = try #require(session.openWindow(scene: "waiting").window)
        let version = try session.window(number).version
        #expect(throws: SessionError.navigation(.noSwitchedModel(from: try session.window(number).graph.activeModelID))) {
            try session.execute(window: number, command: .present(.sheet(.screen("account"))))
        }
        #expect(try session.window(number).pending == nil)
        #expect(try session.window(number).version == version)
    }

    @Test func aResumedDeepLinkSaysSoInItsCause() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.openURL("navsession-demo://detail/5")
        let login = try session.execute(window: number, command: .switchModel(.screen("main")))
        let cause = try #require(Self.causes(login, number).last)
        #expect(cause.contains(#""resumed":{"state":"main","url":"navsession-demo://detail/5"}"#), "\(cause)")
    }

    @Test func aJournalWrittenBeforeTheConditionWasDeclaredStillReplays() throws {
        let directory = temporaryDirectory()
        let unguarded = try Manifest(json: Manifest.demoJSON.replacingOccurrences(
            of: #""requires": {"state": "main"},"#, with: "").replacingOccurrences(
            of: #""redirect": [{"command": "switchModel", "model": {"screen":"login"}}]"#, with: #""optional": []"#))
        let number: WindowNumber
        do {
            let store = try SessionStore(directory: directory, logger: Logger(label: "test"))
            let session = try Session(manifest: unguarded, store: store, logger: Logger(label: "test"))
            number = try #require(session.openWindow(scene: "main").window)
            try session.apply(window: number, batch: Self.appendAccount)
            #expect(try session.window(number).activeScreen == "account")
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(number).activeScreen == "account")
    }
}
