import Testing

@testable import NavigationCore

struct ReportTests {
    @Test func poppedToTruncatesThePath() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        let event = try window.report(.poppedTo(stack: 1, index: 0))
        #expect(screens(of: 1, in: window) == ["home"])
        #expect(event.finished == [4, 3] && !event.animated && event.cause == .report(.poppedTo(stack: 1, index: 0)))
    }

    @Test(arguments: [-1, 2, 3])
    func poppedToOutOfRangeFails(index: Int) throws {
        let window = try makeWindow(.stack([home, .screen("a")]))
        expectRejected(window, .indexOutOfRange(stack: 1, index: index, count: 2)) { () throws(NavigationError) in
            try window.report(.poppedTo(stack: 1, index: index))
        }
    }

    @Test func poppedToOnANonStackFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .wrongKind(2, expected: "stack")) { () throws(NavigationError) in
            try window.report(.poppedTo(stack: 2, index: 0))
        }
    }

    @Test func poppedToOnAnUnknownModelFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .unknownModel(42)) { () throws(NavigationError) in
            try window.report(.poppedTo(stack: 42, index: 0))
        }
    }

    @Test func dismissedInteractivelyClearsTheSlot() throws {
        let window = try makeWindow(home.presenting(.sheet(detail)))
        let event = try window.report(.dismissedInteractively(2))
        #expect(window.model(1)?.presented == nil && event.finished == [2])
    }

    @Test func dismissedInteractivelyOfANonPresentedModelFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .notPresented(2)) { () throws(NavigationError) in try window.report(.dismissedInteractively(2)) }
    }

    @Test func dismissedInteractivelyTwiceIsStale() throws {
        let window = try makeWindow(home.presenting(.sheet(detail)))
        try window.report(.dismissedInteractively(2))
        expectRejected(window, .unknownModel(2)) { () throws(NavigationError) in try window.report(.dismissedInteractively(2)) }
    }

    @Test func selectedTabSelects() throws {
        let window = try makeWindow(.tabs([TabSpec(id: "a", title: "A", model: home), TabSpec(id: "b", title: "B", model: detail)]))
        try window.report(.selectedTab(tabs: 1, tab: "b"))
        #expect(window.model(1)?.selectedTab == "b")
    }

    @Test func selectedTabWithAnUnknownTabFails() throws {
        let window = try makeWindow(.tabs([TabSpec(id: "a", title: "A", model: home)]))
        expectRejected(window, .unknownTab(tabs: 1, tab: "z", available: ["a"])) { () throws(NavigationError) in
            try window.report(.selectedTab(tabs: 1, tab: "z"))
        }
    }

    @Test func alertActionRunsItsCommandsFromThePresenterThenClearsTheSlot() throws {
        let window = try makeWindow(.stacked(home))
        let alert = PresentationSpec.alert(
            DialogContent(title: "Open?", actions: [DialogAction(id: "open", title: "Open", commands: [.stackAppend(detail)])]))
        try window.execute(.present(alert), from: 1)
        var received: [DeliveredMessage] = []
        try window.onMessage(1) { received.append($0) }
        let event = try window.report(.alertActionChosen(alert: 3, action: "open"))
        #expect(window.model(1)?.presented == nil)
        #expect(screens(of: 1, in: window) == ["home", "detail"])
        #expect(event.finished == [3] && event.started == [4])
        #expect(received == [DeliveredMessage(recipient: 1, sender: 3, message: .actionChosen("open"))])
    }

    @Test func alertActionWithAnUnknownActionFails() throws {
        let window = try makeWindow(home.presenting(.alert(DialogContent(title: "x", actions: [DialogAction(id: "ok", title: "OK")]))))
        expectRejected(window, .unknownAction(alert: 2, action: "nope")) { () throws(NavigationError) in
            try window.report(.alertActionChosen(alert: 2, action: "nope"))
        }
    }

    @Test func alertActionOnANonAlertFails() throws {
        let window = try makeWindow(home.presenting(.sheet(detail)))
        expectRejected(window, .wrongKind(2, expected: "alert or confirmationDialog")) { () throws(NavigationError) in
            try window.report(.alertActionChosen(alert: 2, action: "ok"))
        }
    }

    @Test func alertActionWhoseCommandFailsChangesNothing() throws {
        let window = try makeWindow(home.presenting(.alert(DialogContent(title: "x", actions: [DialogAction(id: "ok", title: "OK", commands: [.stackDropLast])]))))
        expectRejected(window, .noStack(from: 1)) { () throws(NavigationError) in
            try window.report(.alertActionChosen(alert: 2, action: "ok"))
        }
    }

    @Test func windowClosedFinishesEverythingButTheRootAndRefusesInput() throws {
        let window = try makeWindow(.stack([home, detail]).presenting(.sheet(.screen("s"))))
        let event = try window.report(.windowClosed)
        #expect(event.finished == [2, 3, 4])
        #expect(window.isClosed && window.snapshot().isClosed)
        expectRejected(window, .windowClosed) { () throws(NavigationError) in try window.execute(.stackDropLast) }
        expectRejected(window, .windowClosed) { () throws(NavigationError) in try window.report(.windowClosed) }
    }
}
