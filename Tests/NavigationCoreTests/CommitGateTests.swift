import Testing

@testable import NavigationCore

/// The commit gate: what a change enters and leaves is shown to it before the commit, and a refusal rolls
/// the change back.
struct CommitGateTests {
    final class Seen {
        var changes: [CommitGate.Change] = []
    }

    func window(watching screens: [String: CommitGate.Moments], refuse: Bool = false) throws -> (NavigationWindow, Seen) {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        let seen = Seen()
        window.commitGate = CommitGate(screens: screens) { change throws(NavigationError) in
            seen.changes.append(change)
            if refuse { throw .denied(guard: "g", reason: "no") }
        }
        return (window, seen)
    }

    @Test func aChangeTouchingNoWatchedScreenDoesNotCallTheGate() throws {
        let (window, seen) = try window(watching: ["profile": [.enter, .leave]])
        try window.execute(.stackAppend(.screen("about")))
        #expect(seen.changes.isEmpty)
    }

    @Test func enteringAWatchedScreenShowsTheNewModelBeforeTheCommit() throws {
        let (window, seen) = try window(watching: ["profile": [.enter]])
        let before = window.version
        let event = try window.execute(.stackAppend(.screen("profile")))
        let change = try #require(seen.changes.first)
        #expect(change.version == before && change.left.isEmpty)
        #expect(change.entered == [CommitGate.Touched(id: try #require(event.started.first), screen: "profile")])
    }

    @Test func leavingIsShownOnlyToAGateWatchingLeave() throws {
        let (window, seen) = try window(watching: ["profile": [.enter]])
        try window.execute(.stackAppend(.screen("profile")))
        try window.execute(.stackDropLast(1))
        #expect(seen.changes.count == 1)
    }

    @Test func aRefusalRollsTheChangeBackAndKeepsTheVersion() throws {
        let (window, _) = try window(watching: ["profile": [.enter]], refuse: true)
        let before = window.version
        #expect(throws: NavigationError.denied(guard: "g", reason: "no")) { try window.execute(.stackAppend(.screen("profile"))) }
        #expect(window.version == before && window.modelCount == 2)
    }

    @Test func aDryRunIsShownAsOne() throws {
        let (window, seen) = try window(watching: ["profile": [.enter]])
        _ = try window.dryRun([BatchCommand(.stackAppend(.screen("profile")))])
        #expect(seen.changes.first?.dryRun == true)
    }

    @Test func anAlwaysConsultedGateSeesEveryChange() throws {
        let (window, seen) = try window(watching: [:])
        window.commitGate?.alwaysConsulted = true
        try window.execute(.stackAppend(.screen("about")))
        #expect(seen.changes.count == 1)
    }
}
