import Testing

@testable import NavigationCore

/// Bringing a window back to a state it was in (undo and redo): identities kept, one change, the rules of any change.
struct RestoreTests {
    @Test func aDismissedSheetComesBackWithItsIdsAndWhatItOpenedAfterwardsFinishes() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        let before = window.snapshot()
        let editorIDs = before.models.filter { $0.screen == "editor" || $0.parent == 1 }.map(\.id)
        try window.execute(.dismiss, from: 4)
        try window.execute(.stackAppend(.screen("about")))
        let about = window.activeModelID
        let event = try window.restore(before, cause: .undo(version: 3))
        #expect(Set(event.started) == Set(before.models.map(\.id)).subtracting([1, 2]))
        #expect(event.finished == [about])
        #expect(event.steps == [.replaceRoot(from: 1, to: 1)])
        #expect(window.snapshot().models == before.models, "the same models: \(editorIDs)")
        #expect(window.version == before.version + 3)
        // The id counter never goes back: a new model gets an id no model ever had.
        let pushed = try window.execute(.stackAppend(.screen("about")), from: 2)
        #expect(pushed.started.allSatisfy { $0.rawValue > about.rawValue }, "\(pushed.started)")
    }

    @Test func aModelInBothKeepsItsIdAndTakesTheStatesParams() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let before = window.snapshot()
        try window.execute(NavigationCommand.setParams(params: ["id": "2"]), from: 3)
        let event = try window.restore(before, cause: .undo(version: 1))
        #expect(event.started.isEmpty && event.finished.isEmpty && event.modified == [3])
        #expect(window.model(3)?.params == ["id": "1"])
    }

    @Test func aMarkOnAModelItWouldCloseRefusesItAndNothingChanges() throws {
        let window = try makeWindow(.stacked(home))
        let before = window.snapshot()
        try window.execute(.stackAppend(.screen("detail")))
        try window.execute(.protect(model: .id(3), reason: "unsaved", owner: ":1.4"))
        let version = window.version
        expectRejected(window, .prevented(model: 3, reason: "unsaved", dialog: nil, owner: ":1.4")) {
            () throws(NavigationError) in try window.restore(before, cause: .undo(version: 1))
        }
        #expect(window.version == version && window.contains(3))
    }

    @Test func theCommitGateStopsItAndADryRunChangesNothing() throws {
        let window = try makeWindow(.stacked(home))
        let before = window.snapshot()
        try window.execute(.stackAppend(.screen("profile")))
        window.commitGate = CommitGate(screens: ["profile": [.leave]])
        let error = navigationError { () throws(NavigationError) in _ = try window.restore(before, cause: .undo(version: 1)) }
        guard case .undecided(let change)? = error else {
            Issue.record("not stopped: \(String(describing: error))")
            return
        }
        #expect(change.left.map(\.screen) == ["profile"])
        window.commitGate = nil
        let dry = try window.restore(before, cause: .undo(version: 1), dryRun: true)
        #expect(dry.finished == [3] && window.contains(3) && window.version == 1)
    }
}
