import Testing

@testable import NavigationCore

struct PresentationCommandTests {
    let okAlert = PresentationSpec.alert(DialogContent(title: "Saved", actions: [DialogAction(id: "ok", title: "OK")]))

    @Test func presentFromTheRootFillsTheRootSlot() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.execute(.present(.sheet(.stacked(detail), detents: ["medium"])), from: 1)
        #expect(
            window.debugTree() == """
                stack stack #1 (root)
                  stack stack #3 (sheet medium)
                    screen detail #4 (path[0])
                  screen home #2 (path[0])

                """)
        #expect(event.started == [3, 4] && event.modified == [1])
        #expect(window.activeModelID == 4)
    }

    @Test func presentFromAStackElementResolvesUpward() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.present(.fullScreenCover(.screen("player"))), from: 3)
        #expect(window.model(1)?.presented == 4)
        #expect(window.model(4)?.attachment == .presented(.fullScreenCover))
    }

    @Test func presentLandsOnTopOfTheExistingChain() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.present(.sheet(.screen("first"))), from: 1)
        try window.execute(.present(.sheet(.screen("second"))), from: 1)
        try window.execute(.present(okAlert), from: 2)
        #expect(
            window.debugTree() == """
                stack stack #1 (root)
                  screen first #3 (sheet)
                    screen second #4 (sheet)
                      alert alert #5 (alert)
                  screen home #2 (path[0])

                """)
        #expect(window.activeModelID == 5)
    }

    @Test func presentFromTheRootDescendsToTheDeepestSwitchedPresenter() throws {
        let window = try makeWindow(.switched(.tabs([TabSpec(id: "a", title: "A", model: .switched(home))])))
        try window.execute(.present(.sheet(detail)), from: 1)
        // candidates(root) = [root #1, tabs #2, home #4]; none has a slot, the last one presents.
        #expect(window.model(4)?.presented == 5)
    }

    @Test func presentWithASourceIDIsPresentedByTheExecutingModel() throws {
        let window = try makeWindow(.stack([home, detail]))
        let dialog = PresentationSpec.confirmationDialog(
            DialogContent(title: "", actions: [DialogAction(id: "delete", title: "Delete", role: .destructive)]),
            sourceID: "trash")
        try window.execute(.present(dialog), from: 3)
        #expect(window.model(3)?.presented == 4)
        #expect(window.model(4)?.attachment == .presented(.confirmationDialog(sourceID: "trash")))
        #expect(window.verifyPresenterIndex())
    }

    @Test func presentWithASourceIDOnAnOccupiedSlotFails() throws {
        let window = try makeWindow(home.presenting(.sheet(detail)))
        let dialog = PresentationSpec.confirmationDialog(DialogContent(title: "?"), sourceID: "b")
        expectRejected(window, .slotOccupied(presenter: 1, occupant: 2)) { () throws(NavigationError) in
            try window.execute(.present(dialog), from: 1)
        }
    }

    @Test func presentOfAnUnregisteredCustomKindFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .unknownPresentationKind("popover")) { () throws(NavigationError) in
            try window.execute(.present(.custom("popover", detail)))
        }
    }

    @Test func presentOfARegisteredCustomKindSucceeds() throws {
        let window = try makeWindow(home, kinds: ["popover"])
        try window.execute(.present(.custom("popover", detail)))
        #expect(window.model(2)?.attachment == .presented(.custom("popover")))
    }

    @Test func presentFromAnUnknownModelFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .unknownModel(99)) { () throws(NavigationError) in
            try window.execute(.present(.sheet(detail)), from: 99)
        }
    }

    @Test func presentFromADetachedModelInTheSameBatchFails() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .batchCommandFailed(index: 1, .detachedModel(3))) { () throws(NavigationError) in
            try window.apply([BatchCommand(.stackDropLast), BatchCommand(.present(.sheet(.screen("x"))), from: 3)])
        }
    }

    @Test func presentingAlertContentAsASheetFails() throws {
        let window = try makeWindow(home)
        let bad = PresentationSpec(style: .sheet(detents: []), model: ModelSpec(screen: "a", content: .alert(DialogContent(title: "x"))))
        expectRejected(window, .invalidSpec("alert and dialog content can only be presented as alert or confirmationDialog")) {
            () throws(NavigationError) in try window.execute(.present(bad))
        }
    }

    @Test func dismissFromTheRootClosesTheTopPresentation() throws {
        let window = try makeWindow(home.presenting(.sheet(.screen("a").presenting(.sheet(.screen("b"))))))
        let event = try window.execute(.dismiss, from: 1)
        #expect(window.model(2)?.presented == nil)
        #expect(event.finished == [3])
    }

    @Test func dismissFromInsideAPresentedStackClosesTheSheet() throws {
        let window = try makeWindow(home.presenting(.sheet(.stack([.screen("a"), .screen("b")]))))
        let event = try window.execute(.dismiss, from: 4)
        #expect(window.model(1)?.presented == nil)
        #expect(event.finished == [2, 3, 4])
    }

    @Test func dismissWithNothingPresentedFails() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .nothingToDismiss(from: 3)) { () throws(NavigationError) in try window.execute(.dismiss) }
    }

    @Test func dismissOfASwitchedModelPushedOnAStackPopsIt() throws {
        let window = try makeWindow(.stack([home, .switched(detail)]))
        try window.execute(.dismiss, from: 4)
        #expect(screens(of: 1, in: window) == ["home"])
    }

    @Test func dismissJustFromPresentedClosesOnlyTheEnclosingPresentation() throws {
        let window = try makeWindow(home.presenting(.sheet(.screen("a").presenting(.sheet(.screen("b"))))))
        try window.execute(.dismissJustFromPresented, from: 2)
        #expect(window.model(1)?.presented == nil)
        #expect(window.modelCount == 1)
    }

    @Test func dismissJustFromPresentedOutsideAnyPresentationFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .notInsidePresentation(2)) { () throws(NavigationError) in
            try window.execute(.dismissJustFromPresented)
        }
    }

    @Test func specPresentationOnAStackElementFails() throws {
        let error = navigationError { () throws(NavigationError) in
            _ = try NavigationWindow(root: .stacked(home.presenting(.sheet(detail))))
        }
        #expect(error == .cannotPresent(screen: "home"))
    }
}

extension PresentationCommandTests {
    @Test func presentOnTopOfAnAlertFailsBecauseAlertsAreLeaves() throws {
        let window = try makeWindow(home.presenting(okAlert))
        expectRejected(window, .presenterIsLeaf(2)) { () throws(NavigationError) in
            try window.execute(.present(.sheet(detail)))
        }
    }
}
