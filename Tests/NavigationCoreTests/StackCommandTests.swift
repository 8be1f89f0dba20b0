import Testing

@testable import NavigationCore

struct StackCommandTests {
    @Test func stackAppendPushesOntoTheActiveStack() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.execute(.stackAppend(.screen("detail", params: ["id": "42"]), transition: "zoom"))
        #expect(
            window.debugTree() == """
                stack stack #1 (root)
                  screen home #2 (path[0])
                  screen detail #3 (path[1]) {"id":"42"}

                """)
        #expect(window.model(1)?.path?.last == StackElement(model: 3, transition: "zoom"))
        #expect(event.version == 1 && event.started == [3] && event.finished.isEmpty && event.modified == [1])
        #expect(window.activeModelID == 3)
    }

    @Test func stackAppendPushesSeveralModelsInOneChange() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.stackAppend(.screen("a"), .screen("b"), .screen("c")))
        #expect(screens(of: 1, in: window) == ["home", "a", "b", "c"])
        #expect(window.version == 1)
    }

    @Test func stackAppendWithoutAStackFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .noStack(from: 1)) { () throws(NavigationError) in try window.execute(.stackAppend(detail)) }
    }

    @Test func stackAppendOfNothingFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .invalidCount(0)) { () throws(NavigationError) in try window.execute(.stackAppend([])) }
    }

    @Test func stackDropLastPopsAndFinishesTheElement() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.stackDropLast)
        #expect(screens(of: 1, in: window) == ["home"])
        #expect(event.finished == [3])
        #expect(!window.contains(3))
    }

    @Test func stackDropLastNeverDropsTheRoot() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        let event = try window.execute(.stackDropLast(10))
        #expect(screens(of: 1, in: window) == ["home"])
        #expect(event.finished == [4, 3])
    }

    @Test func stackDropLastAtRootFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .alreadyAtStackRoot(stack: 1)) { () throws(NavigationError) in try window.execute(.stackDropLast) }
    }

    @Test func stackDropLastOnAnEmptyStackAncestorlessModelFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .noStack(from: 1)) { () throws(NavigationError) in try window.execute(.stackDropLast) }
    }

    @Test func stackDropLastWithZeroCountFails() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .invalidCount(0)) { () throws(NavigationError) in try window.execute(.stackDropLast(0)) }
    }

    @Test func stackDropToRootKeepsElementZero() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        let event = try window.execute(.stackDropToRoot)
        #expect(screens(of: 1, in: window) == ["home"])
        #expect(event.finished == [4, 3])
    }

    @Test func stackDropToRootWithoutStackFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .noStack(from: 1)) { () throws(NavigationError) in try window.execute(.stackDropToRoot) }
    }

    @Test func stackSetRootReplacesElementZeroAndKeepsTheRest() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.stackSetRoot(.screen("newHome")))
        #expect(screens(of: 1, in: window) == ["newHome", "detail"])
        #expect(event.finished == [2] && event.started == [4])
    }

    @Test func stackSetRootWithClearLeavesOnlyTheNewRoot() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.stackSetRoot(.screen("newHome"), clear: true))
        #expect(screens(of: 1, in: window) == ["newHome"])
        #expect(event.finished == [2, 3])
        #expect(window.model(4)?.attachment == .path(index: 0))
    }

    @Test func stackSetRootWithoutStackFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .noStack(from: 1)) { () throws(NavigationError) in try window.execute(.stackSetRoot(detail)) }
    }

    @Test func stackSetPathReplacesThePathKeepingExistingElementsAlive() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        let event = try window.execute(.stackSetPath([.existing(2), .spec(.screen("c")), .existing(4, transition: "fade")]))
        #expect(screens(of: 1, in: window) == ["home", "c", "b"])
        #expect(event.finished == [3] && event.started == [5])
        #expect(window.model(4)?.attachment == .path(index: 2))
    }

    @Test func stackSetPathToEmptyFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .emptyPath(stack: 1)) { () throws(NavigationError) in try window.execute(.stackSetPath([])) }
    }

    @Test func stackSetPathWithAForeignModelFails() throws {
        let window = try makeWindow(.stacked(home).presenting(.sheet(.stacked(detail))))
        // Pre-order creation: root stack #1, sheet stack #2, its detail #3, then home #4.
        expectRejected(window, .notInStack(3, stack: 1)) { () throws(NavigationError) in
            try window.execute(.stackSetPath([.existing(3)]), from: 4)
        }
    }

    @Test func stackSetPathWithADuplicateFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .duplicateElement(2)) { () throws(NavigationError) in
            try window.execute(.stackSetPath([.existing(2), .existing(2)]))
        }
    }

    @Test func reverseStackIsAPureReorderThatFinishesNothing() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        let event = try window.execute(ReverseStack())
        #expect(screens(of: 1, in: window) == ["b", "a", "home"])
        #expect(event.finished.isEmpty && event.started.isEmpty && event.version == 1)
        #expect(window.verifyPresenterIndex())
    }

    @Test func stackMapWithoutStackFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .noStack(from: 1)) { () throws(NavigationError) in try window.execute(ReverseStack()) }
    }

    @Test func stackMapToEmptyFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .emptyPath(stack: 1)) { () throws(NavigationError) in
            try window.execute(StackMap { _ in [] })
        }
    }

    @Test func hideFromAPushedElementPopsBackToJustBelowIt() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        try window.execute(.hide, from: 3)
        #expect(screens(of: 1, in: window) == ["home"])
    }

    @Test func hideFromAStackRootThatIsNotPresentedFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .cannotHide(2)) { () throws(NavigationError) in try window.execute(.hide) }
    }

    @Test func hideFromAPresentedStackRootDismissesTheStack() throws {
        let window = try makeWindow(home.presenting(.sheet(.stacked(detail))))
        let event = try window.execute(.hide, from: 3)
        #expect(window.model(1)?.presented == nil)
        #expect(event.finished == [2, 3])
    }
}
