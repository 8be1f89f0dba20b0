import Testing

@testable import NavigationCore

/// ``WindowConfiguration/entryRequirements``: a change may start a guarded screen only while the switched root
/// shows the state it requires, as the change leaves the window.
struct EntryConditionTests {
    static func window() throws -> NavigationWindow {
        try NavigationWindow(
            root: .switched(.stacked(.screen("login"), screen: "login")),
            configuration: WindowConfiguration(entryRequirements: ["account": "main"]))
    }

    @Test func startingAGuardedScreenInAnotherStateIsRefusedAndChangesNothing() throws {
        let window = try Self.window()
        let before = window.snapshot()
        #expect(throws: NavigationError.entryRefused(screen: "account", state: "main", actual: "login")) {
            try window.execute(.stackAppend(.screen("account")))
        }
        #expect(window.snapshot() == before)
        #expect(window.version == 0)
    }

    @Test func aBatchThatSwitchesToTheStateFirstMayStartIt() throws {
        let window = try Self.window()
        try window.apply([
            BatchCommand(.switchModel(.stacked(.screen("home"), screen: "main"))),
            BatchCommand(.stackAppend(.screen("account"))),
        ])
        #expect(window.screen(of: window.activeModelID) == "account")
    }

    @Test func aDryRunRefusesLikeTheChange() throws {
        let window = try Self.window()
        #expect(throws: NavigationError.entryRefused(screen: "account", state: "main", actual: "login")) {
            try window.dryRun([BatchCommand(.stackAppend(.screen("account")))])
        }
    }

    @Test func unguardedScreensAreNotChecked() throws {
        let window = try Self.window()
        try window.execute(.stackAppend(.screen("about")))
        #expect(window.screen(of: window.activeModelID) == "about")
    }

    @Test func aWindowWithoutASwitchedRootShowsNoState() throws {
        let window = try NavigationWindow(
            root: .stacked(.screen("home")), configuration: WindowConfiguration(entryRequirements: ["account": "main"]))
        #expect(throws: NavigationError.entryRefused(screen: "account", state: "main", actual: nil)) {
            try window.execute(.stackAppend(.screen("account")))
        }
    }
}
