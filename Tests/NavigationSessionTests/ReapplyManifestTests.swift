import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// The manifest's `reapply` action (Docs/guards.md, "The dialog path").
struct ReapplyManifestTests {
    @Test func theDemosDiscardActionReapplies() throws {
        let demo = try Manifest.demo()
        let actions = try #require(demo.dialogs["discardChanges"]).content.actions
        #expect(actions.filter(\.reapply).map(\.id) == ["discard"])
    }

    @Test func twoReapplyingActionsInOneDialogAreRefusedNamingTheKey() {
        let text = Manifest.demoJSON.replacingOccurrences(
            of: #"{"id": "keep", "title": "Keep editing", "role": "cancel"}"#,
            with: #"{"id": "keep", "title": "Keep editing", "role": "cancel", "reapply": true}"#)
        #expect(text != Manifest.demoJSON)
        do {
            _ = try Manifest(json: text)
            Issue.record("expected an error")
        } catch {
            #expect(error.key == "dialogs.discardChanges.actions[1].reapply", "\(error)")
        }
    }
}
