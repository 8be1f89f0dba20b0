import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Protected models in the session: owners stamped from the caller, the dialog path, and the journal.
struct ProtectionSessionTests {
    /// A logged-in demo window with an editor sheet protected by ":1.5" with the discardChanges dialog.
    func protectedEditor(_ session: Session) throws -> (WindowNumber, ModelID) {
        let number = try #require(try session.openWindow(scene: "main").window)
        try session.execute(window: number, command: .switchModel(.screen("main")))
        try session.execute(window: number, command: .present(.sheet(.screen("editor", params: ["id": "1"]))))
        let editor = try session.window(number).graph.activeModelID
        try session.apply(
            window: number, batchJSON: #"[{"command":"protect","model":\#(editor.rawValue),"reason":"unsaved text","dialog":"discardChanges","owner":":1.9"}]"#,
            client: ":1.5")
        return (number, editor)
    }

    @Test func theOwnerIsTheCallerWhateverTheJSONSays() throws {
        let session = try demoSession()
        let (number, editor) = try protectedEditor(session)
        #expect(try session.window(number).graph.model(editor)?.protection?.owner == ":1.5")
    }

    /// A change returns one value: the mark's refusal and the dialog it presented come with the refused change's
    /// result, and nothing is left for a later change to carry.
    @Test func aRefusedChangesResultCarriesTheMarksRefusalAndItsDialog() throws {
        let session = try demoSession()
        let (number, editor) = try protectedEditor(session)
        let before = try session.window(number).version
        let refused = session.change(asking: false) {
            try session.execute(window: number, command: .goBackToRoot, client: ":1.6")
        }
        guard case .refused = refused.kind else {
            Issue.record("GoBackToRoot over another client's mark was not refused: \(refused.kind)")
            return
        }
        #expect(refused.refusals.map(\.model) == [editor])
        #expect(refused.madeInstead?.events.contains { if case .changed(number, _, _, _) = $0 { true } else { false } } == true)
        #expect(try session.window(number).version == before + 1, "the dialog is one change")
        let next = session.change(asking: false) {
            try session.execute(window: number, command: .stackAppend(.screen("about")), client: ":1.5")
        }
        #expect(!next.hasSideEffects, "the next change carries nothing of the refused one")
    }

    @Test func aReappliedChangeSurvivesAKillThroughTheJournal() throws {
        let directory = temporaryDirectory()
        var before: WindowSnapshot?
        var number: WindowNumber = 0
        do {
            let session = try demoSession(directory: directory)
            let (window, _) = try protectedEditor(session)
            number = window
            #expect(throws: SessionError.self) { try session.execute(window: window, command: .goBackToRoot, client: ":1.6") }
            let alert = try session.window(window).graph.activeModelID
            #expect(session.window(number: window)?.graph.model(alert)?.kind == .alert)
            try session.report(window: window, .alertActionChosen(alert: alert, action: "discard"), client: ":1.6")
            #expect(try session.window(window).graph.protectedCount == 0)
            before = try session.window(window).graph.snapshot()
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(number).graph.snapshot() == before)
    }

    @Test func theOwnerLeavingDropsItsMarksAsAChange() throws {
        let session = try demoSession()
        let (number, _) = try protectedEditor(session)
        let version = try session.window(number).version
        try session.clientVanished(uniqueName: ":1.5")
        #expect(try session.window(number).graph.protectedCount == 0)
        #expect(try session.window(number).version == version + 1)
    }
}

private extension Session {
    func window(number: WindowNumber) -> SessionWindow? { try? window(number) }
}
