import Testing

@testable import NavigationCore

/// The commit gate: a change that enters or leaves a watched screen stops before it commits, as a value its owner
/// decides about (nothing changed); applied again with that value decided, it commits.
struct CommitGateTests {
    func window(watching screens: [String: CommitGate.Moments]) throws -> NavigationWindow {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        window.commitGate = CommitGate(screens: screens)
        return window
    }

    /// The change the gate stopped, or `nil` when it ran.
    func stopped(_ body: () throws(NavigationError) -> Void) -> CommitGate.Change? {
        do throws(NavigationError) {
            try body()
            return nil
        } catch {
            guard case .undecided(let change) = error else { return nil }
            return change
        }
    }

    @Test func aChangeTouchingNoWatchedScreenCommitsWithoutStopping() throws {
        let window = try window(watching: ["profile": [.enter, .leave]])
        try window.execute(.stackAppend(.screen("about")))
        #expect(window.version == 1)
    }

    @Test func enteringAWatchedScreenStopsWithTheNewModelAndChangesNothing() throws {
        let window = try window(watching: ["profile": [.enter]])
        let change = try #require(stopped { () throws(NavigationError) in try window.execute(.stackAppend(.screen("profile"))) })
        #expect(change.version == 0 && change.left.isEmpty && !change.dryRun)
        #expect(change.entered.map(\.screen) == ["profile"])
        #expect(window.version == 0 && window.modelCount == 2)
    }

    @Test func theDecidedChangeCommitsWithTheIdsItWasShownWith() throws {
        let window = try window(watching: ["profile": [.enter]])
        let change = try #require(stopped { () throws(NavigationError) in try window.execute(.stackAppend(.screen("profile"))) })
        window.commitGate?.decided = change
        let event = try window.execute(.stackAppend(.screen("profile")))
        #expect(event.started == change.entered.map(\.id))
        #expect(window.version == 1)
    }

    @Test func aDecisionLetsOnlyThatChangeThrough() throws {
        let window = try window(watching: ["profile": [.enter]])
        let change = try #require(stopped { () throws(NavigationError) in try window.execute(.stackAppend(.screen("profile"))) })
        window.commitGate?.decided = change
        let other = stopped { () throws(NavigationError) in
            try window.execute(.stackAppend(.screen("profile", params: ["id": "2"])))
        }
        #expect(other != nil && other != change)
        #expect(window.version == 0)
    }

    @Test func leavingStopsOnlyAtAGateWatchingLeave() throws {
        let window = try window(watching: ["profile": [.enter]])
        let change = try #require(stopped { () throws(NavigationError) in try window.execute(.stackAppend(.screen("profile"))) })
        window.commitGate?.decided = change
        try window.execute(.stackAppend(.screen("profile")))
        window.commitGate?.decided = nil
        try window.execute(.stackDropLast(1))
        #expect(window.version == 2)
    }

    @Test func aDryRunStopsAsOne() throws {
        let window = try window(watching: ["profile": [.enter]])
        let change = stopped { () throws(NavigationError) in _ = try window.dryRun([BatchCommand(.stackAppend(.screen("profile")))]) }
        #expect(change?.dryRun == true)
    }

    @Test func anAlwaysConsultedGateStopsEveryChange() throws {
        let window = try window(watching: [:])
        window.commitGate?.alwaysConsulted = true
        #expect(stopped { () throws(NavigationError) in try window.execute(.stackAppend(.screen("about"))) } != nil)
        #expect(window.version == 0)
    }
}
