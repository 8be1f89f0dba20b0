import Foundation
import Testing

@testable import NavigationCore

/// Protected models (Docs/guards.md): a change that would finish or suspend a marked model is refused whole.
struct ProtectionTests {
    /// home (stack 1, home 2) with a sheet editor (3) marked by ":1.7".
    func windowWithProtectedSheet(dialog: String? = "discardChanges") throws -> NavigationWindow {
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.screen("editor"))))
        try window.execute(.protect(model: .id(3), reason: "unsaved text", dialog: dialog, owner: ":1.7"))
        return window
    }

    /// A presentation goes with the pushed screen that opened it, so a mark in it makes popping that screen
    /// refused — and the abilities say so (found by the random step tests with marks).
    @Test func aMarkedPresentationOpenedByTheTopScreenMakesItsPopUnavailable() throws {
        // switched 1 → stack 2 → home 3, detail 4; the cover 5 is opened by detail 4 (hosted by the stack's presenter).
        let window = try makeWindow(.switched(.stack([home, .screen("detail")])))
        try window.execute(.present(.fullScreenCover(.screen("player"))), from: 4)
        #expect(window.model(5)?.resultTo == 4)
        try window.execute(.protect(model: .id(5), reason: "playing", owner: nil))
        expectRejected(window, .prevented(model: 5, reason: "playing", dialog: nil, owner: "")) {
            () throws(NavigationError) in try window.execute(.stackDropLast(1), from: 3)
        }
        // From the active cover: its own dismissal is refused (CanDismiss, CanGoBack false) and so is the pop under it.
        let abilities = window.abilities
        #expect(window.activeModelID == 5)
        #expect(abilities.canPop == ((try? window.dryRun([BatchCommand(.stackDropLast(1))])) != nil))
        #expect(!abilities.canGoBack && !abilities.canDismiss)
    }

    /// A discard dialog whose "Discard" re-applies the refused change (its own commands only a fallback) can be
    /// presented where those commands could not run — over a pushed screen, where there is nothing to dismiss.
    static let discard = PresentationSpec.alert(DialogContent(title: "Discard changes?", actions: [
        DialogAction(id: "discard", title: "Discard", role: .destructive, commands: [.dismiss], reapply: true),
        DialogAction(id: "keep", title: "Keep editing", role: .cancel),
    ]))

    @Test func aReapplyingActionIsNotTriedWhenItsDialogIsPresented() throws {
        let window = try makeWindow(.switched(.stack([home, .screen("detail")])))
        try window.execute(.present(Self.discard), from: 4)
        #expect(window.model(5)?.kind == .alert)
        // An ordinary action with the same commands is still tried, and refused.
        let plain = PresentationSpec.alert(DialogContent(title: "?", actions: [DialogAction(id: "x", title: "X", commands: [.dismiss])]))
        try window.execute(.dismiss, from: 5)
        #expect(navigationError { () throws(NavigationError) in try window.execute(.present(plain), from: 4) } != nil)
    }

    @Test func aReapplyingActionWhoseCommandsNoLongerRunClosesItsDialogAlone() throws {
        let window = try makeWindow(.switched(.stack([home, .screen("detail")])))
        try window.execute(.present(Self.discard), from: 4)
        let event = try window.report(.alertActionChosen(alert: 5, action: "discard"))
        #expect(event.finished == [5])
        #expect(window.contains(4) && window.activeModelID == 4)
    }

    @Test func protectMarksTheModelAndCountsIt() throws {
        let window = try windowWithProtectedSheet()
        #expect(window.model(3)?.protection == Protection(reason: "unsaved text", dialog: "discardChanges", owner: ":1.7"))
        #expect(window.protectedCount == 1)
        #expect(window.version == 2)
    }

    @Test func aDismissOfAProtectedModelIsRefusedAndNothingChanges() throws {
        let window = try windowWithProtectedSheet()
        expectRejected(window, .prevented(model: 3, reason: "unsaved text", dialog: "discardChanges", owner: ":1.7")) {
            () throws(NavigationError) in try window.execute(.dismiss, from: 3)
        }
        #expect(window.version == 2)
        #expect(window.contains(3))
    }

    @Test func removingAnAncestorOfAProtectedModelIsRefused() throws {
        // The sheet's stack (3) goes with its editor (4) in it.
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        try window.execute(.protect(model: .id(4), reason: "r", owner: nil))
        #expect(throws: NavigationError.self) { try window.execute(.dismissAll) }
        #expect(throws: NavigationError.self) { try window.execute(.dismissJustFromPresented, from: 3) }
        #expect(window.contains(3) && window.contains(4))
    }

    @Test func aBatchThatUnprotectsFirstThenRemovesPasses() throws {
        let window = try windowWithProtectedSheet()
        try window.apply([BatchCommand(.unprotect(model: .id(3), owner: ":1.7")), BatchCommand(.dismiss, from: 3)])
        #expect(!window.contains(3))
        #expect(window.protectedCount == 0)
    }

    @Test func onlyTheOwnerMayUnprotect() throws {
        let window = try windowWithProtectedSheet()
        expectRejected(window, .prevented(model: 3, reason: "unsaved text", dialog: nil, owner: ":1.7")) {
            () throws(NavigationError) in try window.execute(.unprotect(model: .id(3), owner: ":1.9"))
        }
        #expect(window.protectedCount == 1)
    }

    @Test func reprotectingByTheOwnerUpdatesReasonAndDialog() throws {
        let window = try windowWithProtectedSheet()
        try window.execute(.protect(model: .id(3), reason: "still typing", dialog: nil, owner: ":1.7"))
        #expect(window.model(3)?.protection == Protection(reason: "still typing", owner: ":1.7"))
        #expect(window.protectedCount == 1)
    }

    @Test func aRefusedProtectIsRolledBackWithItsCount() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.screen("editor"))))
        #expect(throws: NavigationError.self) {
            try window.apply([BatchCommand(.protect(model: .id(3), reason: "r", owner: "a")), BatchCommand(.dismiss, from: 3)])
        }
        #expect(window.protectedCount == 0)
        #expect(window.model(3)?.protection == nil)
    }

    @Test func switchingAwayFromAProtectedBranchIsRefused() throws {
        let window = try makeWindow(.switched(.stacked(.screen("main"))))
        try window.execute(.protect(model: .id(3), reason: "r", owner: nil))
        #expect(throws: NavigationError.self) { try window.execute(.switchModel(.screen("login"), saveState: true)) }
        #expect(throws: NavigationError.self) { try window.execute(.switchModel(.screen("login"))) }
        #expect(window.version == 1)
    }

    @Test func aReportThatDismissesAProtectedSheetIsRefused() throws {
        let window = try windowWithProtectedSheet()
        #expect(throws: NavigationError.self) { try window.report(.dismissedInteractively(3)) }
        #expect(window.contains(3))
    }

    @Test func aWaivedProtectionLetsTheChangeThroughAndTheMarkGoes() throws {
        let window = try windowWithProtectedSheet()
        try window.apply([BatchCommand(.dismiss, from: 3)], waiving: [3])
        #expect(!window.contains(3))
        #expect(window.protectedCount == 0)
    }

    @Test func abilitiesDoNotOfferAMoveAProtectionWouldRefuse() throws {
        let window = try windowWithProtectedSheet()
        #expect(window.abilities == WindowAbilities(canGoBack: false, canPop: false, canDismiss: false))
        try window.execute(.unprotect(model: .id(3), owner: ":1.7"))
        #expect(window.abilities.canGoBack)
        #expect(window.abilities.canDismiss)
    }

    @Test func marksSurviveASnapshotRoundTrip() throws {
        let window = try windowWithProtectedSheet()
        let data = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: JSONDecoder().decode(WindowSnapshot.self, from: data))
        #expect(restored.model(3)?.protection?.owner == ":1.7")
        #expect(restored.protectedCount == 1)
        #expect(throws: NavigationError.self) { try restored.execute(.dismiss, from: 3) }
    }

    @Test func protectAndUnprotectDecodeFromTheirJSON() throws {
        let protect = try JSONDecoder().decode(
            NavigationCommand.self,
            from: Data(#"{"command":"protect","model":"tag:editor","reason":"unsaved text","dialog":"discardChanges"}"#.utf8))
        #expect(protect == .protect(model: .tag("editor"), reason: "unsaved text", dialog: "discardChanges"))
        let unprotect = try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"unprotect","model":12}"#.utf8))
        #expect(unprotect == .unprotect(model: .id(12)))
    }
}

extension ProtectionTests {
    @Test func reapplyClosesTheDialogAndRunsTheRefusedChangeWithTheMarkWaived() throws {
        let window = try windowWithProtectedSheet()
        let content = DialogContent(title: "Discard changes?", actions: [DialogAction(id: "discard", title: "Discard", reapply: true)])
        try window.execute(.present(.alert(content)), from: 3)
        let alert = try #require(window.model(3)?.presented)
        let event = try window.reapply(closing: alert, action: "discard", batch: [BatchCommand(.goBackToRoot)], waiving: [3])
        #expect(event.version == window.version)
        #expect(!window.contains(3) && !window.contains(alert))
        #expect(window.protectedCount == 0)
    }
}
