import Foundation
import Testing

@testable import NavigationCore

/// Saved branches: a switched container keeps the branch it leaves (Jetpack `saveState`/`restoreState`).
struct SavedBranchTests {
    static let login = ModelSpec.stacked(.screen("login"), screen: "login")
    static let main = ModelSpec.tabs(
        [
            TabSpec(id: "home", title: "Home", model: .stacked(.screen("home"), screen: "homeStack")),
            TabSpec(id: "settings", title: "Settings", model: .stacked(.screen("settings"), screen: "settingsStack")),
        ], screen: "main")

    /// A window showing `login` whose switched root keeps `main` when it leaves it.
    static func window(savedStates: Set<String> = ["main"], limits: GraphLimits = .unlimited) throws -> NavigationWindow {
        try NavigationWindow(
            root: .switched(login, screen: "app"),
            configuration: WindowConfiguration(limits: limits, savedStates: savedStates))
    }

    /// Logs in and pushes `detail` on the home tab; returns the ids of `main` and `detail`.
    @discardableResult
    static func logInAndPush(_ window: NavigationWindow) throws -> (main: ModelID, detail: ModelID) {
        try window.execute(.switchModel(main))
        let event = try window.execute(.stackAppend(.screen("detail", params: ["id": "1"])))
        let main = try #require(window.root?.switchedModel)
        return (main, try #require(event.started.first))
    }

    @Test func aDeclaredStateComesBackWithTheSameIDs() throws {
        let window = try Self.window()
        let (main, detail) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        try window.execute(.switchModel(Self.main))
        #expect(window.root?.switchedModel == main)
        #expect(window.activeModelID == detail)
        #expect(window.model(detail)?.params == ["id": "1"])
        #expect(window.root?.saved == [])
        #expect(window.verifyPresenterIndex())
    }

    @Test func leavingAKeptStateSuspendsItsModelsInsteadOfFinishingThem() throws {
        let window = try Self.window()
        let (main, detail) = try Self.logInAndPush(window)
        let event = try window.execute(.switchModel(Self.login))
        #expect(event.finished == [])
        #expect(event.suspended.first == main)
        #expect(event.suspended.contains(detail))
        #expect(event.suspended.count == 6)
        let suspendedMessages = event.messages.filter { $0.message == .suspended }.map(\.recipient)
        #expect(suspendedMessages == event.suspended)
        #expect(window.root?.saved == [SavedBranch(screen: "main", model: main)])
        #expect(window.model(main)?.attachment == .saved("main"))
    }

    @Test func comingBackResumesTheKeptModels() throws {
        let window = try Self.window()
        let (main, detail) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        let event = try window.execute(.switchModel(Self.main))
        #expect(event.started.isEmpty)
        #expect(event.finished.count == 2)  // the login stack and its screen
        #expect(event.resumed.first == main)
        #expect(event.resumed.contains(detail))
        #expect(event.messages.filter { $0.message == .resumed }.map(\.recipient) == event.resumed)
    }

    @Test func theSwitchStepSaysWhatWasSavedAndRestored() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        let out = try window.execute(.switchModel(Self.login))
        guard case .switchContent(_, let from, let loginID, let saved, let restored) = out.steps.first else {
            Issue.record("no switch step: \(out.steps)")
            return
        }
        #expect(from == main && saved && !restored)
        let back = try window.execute(.switchModel(Self.main))
        #expect(back.steps == [.switchContent(container: 1, from: loginID, to: main, saved: false, restored: true)])
    }

    @Test func saveStateFalseFinishesADeclaredState() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        let event = try window.execute(.switchModel(Self.login, saveState: false))
        #expect(event.finished.first == main)
        #expect(window.root?.saved == [])
        #expect(!window.contains(main))
    }

    @Test func saveStateTrueKeepsAnUndeclaredState() throws {
        let window = try Self.window(savedStates: [])
        let (main, _) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login, saveState: true))
        try window.execute(.switchModel(Self.main))
        #expect(window.root?.switchedModel == main)
    }

    @Test func anUndeclaredStateFinishesByDefault() throws {
        let window = try Self.window(savedStates: [])
        let (main, _) = try Self.logInAndPush(window)
        let event = try window.execute(.switchModel(Self.login))
        #expect(event.finished.first == main)
    }

    @Test func restoreStateFalseBuildsAFreshModelAndLeavesTheKeptOne() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        let event = try window.execute(.switchModel(Self.main, restoreState: false))
        #expect(event.started.count == 5)
        #expect(window.root?.switchedModel != main)
        #expect(window.root?.saved == [SavedBranch(screen: "main", model: main)])
        #expect(window.verifyPresenterIndex())
    }

    @Test func keepingAScreenAlreadyKeptFinishesTheOlderBranch() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        try window.execute(.switchModel(Self.main, restoreState: false))
        let fresh = try #require(window.root?.switchedModel)
        let event = try window.execute(.switchModel(Self.login))
        #expect(event.finished.first == main)
        #expect(window.root?.saved == [SavedBranch(screen: "main", model: fresh)])
        #expect(window.verifyPresenterIndex())
    }

    @Test func clearSavedStateFinishesTheKeptBranch() throws {
        let window = try Self.window()
        let (main, detail) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        let event = try window.execute(.clearSavedState(screen: "main"))
        #expect(event.finished.first == main)
        #expect(event.finished.contains(detail))
        #expect(window.root?.saved == [])
        #expect(window.modelCount == 3)
        let fresh = try window.execute(.switchModel(Self.main))
        #expect(fresh.started.count == 5)
    }

    @Test func clearSavedStateWithoutAScreenClearsEveryKeptBranch() throws {
        let window = try Self.window(savedStates: ["main", "login"])
        try Self.logInAndPush(window)
        try window.execute(.switchModel(.screen("other")))
        #expect(window.root?.saved.map(\.screen) == ["login", "main"])
        try window.execute(.clearSavedState(screen: nil))
        #expect(window.root?.saved == [])
        #expect(window.modelCount == 2)
    }

    @Test func clearSavedStateWithNothingKeptChangesNothing() throws {
        let window = try Self.window()
        let event = try window.execute(.clearSavedState(screen: "main"))
        #expect(event.isNoOp)
    }

    @Test func clearSavedStateNeedsASwitchedContainer() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .noSwitchedModel(from: 2)) { () throws(NavigationError) in
            try window.execute(.clearSavedState(screen: "main"))
        }
    }

    @Test func aCommandFromAKeptModelFailsNamingTheBranch() throws {
        let window = try Self.window()
        let (_, detail) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        expectRejected(window, .savedModel(detail, container: 1, screen: "main")) { () throws(NavigationError) in
            try window.execute(.stackDropLast, from: detail)
        }
    }

    @Test func aMessageToAKeptModelFails() throws {
        let window = try Self.window()
        let (_, detail) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        expectRejected(window, .savedModel(detail, container: 1, screen: "main")) { () throws(NavigationError) in
            try window.execute(.sendMessage(NavigationMessage("hello"), to: .model(.id(detail))))
        }
    }

    @Test func aDirectMessageToAKeptModelFails() throws {
        let window = try Self.window()
        let (_, detail) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        #expect(navigationError { () throws(NavigationError) in
            try window.sendMessage(NavigationMessage("hello"), to: detail)
        } == .savedModel(detail, container: 1, screen: "main"))
    }

    @Test func aKeptBranchIsOffTheActiveBranchAndTheLiveChildren() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        #expect(!window.activePath.contains(main))
        #expect(!window.children(of: 1).contains(main))
        #expect(window.parent(of: main) == 1)
        #expect(window.verifyPresenterIndex())
    }

    @Test func aKeptPresentationComesBackAndIsNotANearestPresenterMeanwhile() throws {
        let window = try Self.window()
        try Self.logInAndPush(window)
        let sheet = try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        try window.execute(.switchModel(Self.login))
        // The new alert goes on the login branch, not on the kept sheet.
        let alert = try window.execute(.present(.alert(DialogContent(title: "Hi"))))
        #expect(window.model(try #require(alert.started.first))?.parent == window.root?.switchedModel)
        try window.execute(.dismiss)
        try window.execute(.switchModel(Self.main))
        #expect(window.activePath.contains(try #require(sheet.started.first)))
        #expect(window.verifyPresenterIndex())
    }

    @Test func aFailedBatchLeavesTheKeptBranchesAsBefore() throws {
        let window = try Self.window()
        try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        expectRejected(window, .batchCommandFailed(index: 1, .alreadyAtStackRoot(stack: 7))) {
            () throws(NavigationError) in
            _ = try window.apply([BatchCommand(.switchModel(Self.main)), BatchCommand(.stackDropLast(1), from: 8)])
        }
        #expect(window.model(window.root?.saved.first?.model ?? 0)?.attachment == .saved("main"))
    }

    @Test func aFailedBatchThatKeptABranchLeavesTheGraphAsBefore() throws {
        let window = try Self.window()
        try Self.logInAndPush(window)
        expectRejected(window, .batchCommandFailed(index: 1, .emptyBatch)) { () throws(NavigationError) in
            _ = try window.apply([BatchCommand(.switchModel(Self.login)), BatchCommand(.sequence([]))])
        }
    }

    @Test func leavingAndComingBackInOneChangeSuspendsNothing() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        let event = try window.apply([BatchCommand(.switchModel(Self.login)), BatchCommand(.switchModel(Self.main))])
        #expect(event.suspended.isEmpty && event.resumed.isEmpty)
        #expect(window.root?.switchedModel == main)
    }

    @Test func aBranchCreatedAndKeptInOneChangeStartsAndIsSuspended() throws {
        let window = try Self.window()
        let event = try window.apply([BatchCommand(.switchModel(Self.main)), BatchCommand(.switchModel(Self.login))])
        #expect(event.started.count == 7)
        #expect(event.suspended.count == 5)
        #expect(window.modelCount == 8)
        #expect(window.verifyPresenterIndex())
    }

    @Test func keptModelsCountTowardTheModelLimit() throws {
        let window = try Self.window(limits: GraphLimits(maxModels: 8))
        try window.execute(.switchModel(Self.main))
        try window.execute(.switchModel(Self.login))
        #expect(window.modelCount == 8)
        expectRejected(window, .limitsExceeded("the window would hold 9 models; at most 8")) {
            () throws(NavigationError) in
            try window.execute(.stackAppend(.screen("more")))
        }
    }

    @Test func aSwitchedModelKeepsAtMostMaxChildrenBranches() throws {
        let window = try Self.window(limits: GraphLimits(maxChildren: 2))
        try window.execute(.switchModel(.screen("a"), saveState: true))
        try window.execute(.switchModel(.screen("b"), saveState: true))
        #expect(window.root?.saved.map(\.screen) == ["login", "a"])
        expectRejected(window, .limitsExceeded("switched model #1 would keep 3 branches; at most 2")) {
            () throws(NavigationError) in
            try window.execute(.switchModel(.screen("c"), saveState: true))
        }
        // Swapping with a kept branch keeps the count.
        try window.execute(.switchModel(.screen("a"), saveState: true))
        #expect(window.root?.saved.map(\.screen) == ["login", "b"])
    }

    @Test func keptBranchesGoWithTheirRemovedContainer() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.switched(Self.main, screen: "flow"))))
        try window.execute(.switchModel(Self.login, saveState: true))
        let sheetModels = window.modelCount - 2
        let event = try window.execute(.dismiss, from: 1)
        #expect(event.finished.count == sheetModels)
        #expect(window.modelCount == 2)
        #expect(window.verifyPresenterIndex())
    }

    @Test func theDebugTreeShowsKeptBranchesAfterTheLiveChild() throws {
        let window = try Self.window()
        try window.execute(.switchModel(Self.main))
        try window.execute(.switchModel(Self.login))
        #expect(
            window.debugTree() == """
                switched app #1 (root)
                  stack login #9 (switched)
                    screen login #10 (path[0])
                  tabs main #4 (saved main)
                    stack homeStack #5 (tab home*)
                      screen home #6 (path[0])
                    stack settingsStack #7 (tab settings)
                      screen settings #8 (path[0])

                """)
    }

    @Test func aSnapshotCarriesKeptBranchesAndRestoresThem() throws {
        let window = try Self.window()
        let (main, detail) = try Self.logInAndPush(window)
        try window.execute(.present(.sheet(.screen("editor"))))
        try window.execute(.switchModel(Self.login))
        let snapshot = try roundTrip(window.snapshot())
        #expect(snapshot == window.snapshot())
        let restored = try NavigationWindow(snapshot: snapshot, configuration: window.configuration)
        #expect(restored.verifyPresenterIndex())
        #expect(restored.modelCount == window.modelCount)
        let event = try restored.execute(.switchModel(Self.main))
        #expect(restored.root?.switchedModel == main)
        #expect(event.resumed.contains(detail))
        #expect(restored.verifyPresenterIndex())
    }

    @Test func setStateFinishesTheKeptBranchesAndLoadsOnlyTheLiveStructure() throws {
        let window = try Self.window()
        let (main, _) = try Self.logInAndPush(window)
        try window.execute(.switchModel(Self.login))
        let loaded = window.snapshot()
        let event = try window.setState(loaded)
        #expect(event.finished.contains(main))
        #expect(window.root?.saved == [])
        #expect(window.modelCount == 3)
        #expect(window.verifyPresenterIndex())
    }

    @Test func aSnapshotWithKeptBranchesOnANonSwitchedModelIsInvalid() throws {
        let models = [
            ModelState(id: 1, parent: nil, attachment: .root, screen: "s", content: .stack(path: [StackElement(model: 2)], hidesTabBarWhenNotAtRoot: false),
                       saved: [SavedBranch(screen: "x", model: 3)]),
            ModelState(id: 2, parent: 1, attachment: .path(index: 0), screen: "a", content: .screen),
            ModelState(id: 3, parent: 1, attachment: .saved("x"), screen: "x", content: .screen),
        ]
        #expect(throws: NavigationError.self) { try WindowSnapshot(version: 0, nextModelID: 4, root: 1, models: models) }
    }

    @Test func switchModelFlagsAndClearSavedStateDecodeFromJSON() throws {
        let json = #"[{"command":"switchModel","model":{"screen":"main"},"saveState":true,"restoreState":false},"#
            + #"{"command":"clearSavedState","screen":"main"},{"command":"clearSavedState"}]"#
        let batch = try JSONDecoder().decode([BatchCommand].self, from: Data(json.utf8))
        #expect(batch.map(\.command) == [
            .switchModel(.screen("main"), saveState: true, restoreState: false),
            .clearSavedState(screen: "main"), .clearSavedState(screen: nil),
        ])
        #expect(try roundTrip(batch) == batch)
    }

    @Test func clearSavedStateRefusesUnknownKeys() {
        let json = #"{"command":"clearSavedState","screens":"main"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(BatchCommand.self, from: Data(json.utf8)) }
    }

    @Test func aKeptBranchKeepsItsTagsUntilItIsCleared() throws {
        let window = try Self.window()
        try window.execute(.switchModel(Self.main))
        let detail = try #require(try window.execute(.stackAppend(.screen("detail", tag: "d"))).started.first)
        try window.execute(.switchModel(Self.login))
        // The kept detail still carries "d": a new model may not take it, and the tag names the kept model.
        #expect(throws: NavigationError.duplicateTag("d", existing: detail)) {
            try window.execute(.stackAppend(.screen("other", tag: "d")))
        }
        #expect(try window.resolve(.tag("d")) == detail)
        try window.execute(.clearSavedState(screen: "main"))
        try window.execute(.stackAppend(.screen("other", tag: "d")))
        #expect(window.verifyTagIndex())
    }
}
