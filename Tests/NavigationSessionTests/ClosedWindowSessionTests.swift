import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// The recently-closed list and reopening a window from it.
struct ClosedWindowSessionTests {
    /// A logged-in main window showing detail 42 pushed on the home tab.
    func mainOnDetail(_ session: Session) throws -> WindowNumber {
        let main = try loggedInMain(session)
        try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "42"])))
        return main
    }

    @Test func aDismissedWindowGoesToTheListWithItsLastState() throws {
        let session = try demoSession(clock: SessionClock(nanoseconds: { 0 }, wallMilliseconds: { 1_764_211_200_000 }))
        let main = try mainOnDetail(session)
        let before = try session.window(main).graph.snapshot()
        try session.dismissWindow(main)
        let closed = try #require(session.closedWindows.first)
        #expect(closed.id == "\(main)")
        #expect(closed.scene == "main")
        #expect(closed.activeScreen == "detail")
        #expect(closed.title == "Detail")
        #expect(closed.closedAt == 1_764_211_200_000)
        #expect(closed.snapshot == before)
    }

    @Test func aWindowClosedByADismissWindowCommandGoesToTheList() throws {
        let session = try demoSession()
        let main = try loggedInMain(session)
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.execute(window: main, command: .dismissWindow(id: "\(waiting)"))
        #expect(session.closedWindows.map(\.number) == [waiting])
    }

    @Test func aWindowReportedClosedGoesToTheList() throws {
        let session = try demoSession()
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.report(window: waiting, .windowClosed)
        #expect(session.closedWindows.map(\.number) == [waiting])
    }

    @Test func aWindowClosedBecauseItsClientLeftGoesToTheList() throws {
        let session = try demoSession()
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.setCloseOnExit(window: waiting, owner: ":1.5")
        try session.clientVanished(uniqueName: ":1.5")
        #expect(session.closedWindows.map(\.number) == [waiting])
    }

    @Test func aReopenedWindowIsNotTiedToTheClientItWasTiedTo() throws {
        let session = try demoSession()
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.setCloseOnExit(window: waiting, owner: ":1.5")
        try session.clientVanished(uniqueName: ":1.5")
        let reopened = try #require(session.reopenWindow().window)
        #expect(try session.window(reopened).closeOnExitOwner == nil)
    }

    @Test func aRestartWithASmallerBoundKeepsTheMostRecent() throws {
        let directory = temporaryDirectory()
        var numbers: [WindowNumber] = []
        do {
            let session = try demoSession(directory: directory)
            for _ in 0..<4 {
                let number = try #require(session.openWindow(scene: "waiting").window)
                try session.dismissWindow(number)
                numbers.append(number)
            }
            try session.close()
            session.store?.abandonForTesting()
        }
        var limits = SessionLimits()
        limits.maxClosedWindows = 2
        let restored = try demoSession(directory: directory, limits: limits)
        #expect(restored.closedWindows.map(\.number) == [numbers[3], numbers[2]])
    }

    @Test func aReopenWhoseEntryFellOffASmallerBoundIsDroppedAndTheRestRestored() throws {
        let directory = temporaryDirectory()
        let kept: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            kept = try loggedInMain(session)
            let first = try #require(session.openWindow(scene: "waiting").window)
            let second = try #require(session.openWindow(scene: "waiting").window)
            try session.dismissWindow(first)
            try session.dismissWindow(second)
            try session.reopenWindow("\(first)")
            // Dropped without close(): the journal holds the dismissals and the reopen.
        }
        var limits = SessionLimits()
        limits.maxClosedWindows = 1
        let restored = try demoSession(directory: directory, limits: limits)
        #expect(restored.windows.map(\.number) == [kept])
        #expect(restored.closedWindows.count == 1)
        #expect(files(in: directory).allSatisfy { !$0.contains("corrupt") })
    }

    @Test func theListIsMostRecentFirst() throws {
        let session = try demoSession()
        let first = try #require(session.openWindow(scene: "waiting").window)
        let second = try #require(session.openWindow(scene: "waiting").window)
        try session.dismissWindow(first)
        try session.dismissWindow(second)
        #expect(session.closedWindows.map(\.number) == [second, first])
    }

    @Test func theListKeepsAtMostItsBound() throws {
        var limits = SessionLimits()
        limits.maxClosedWindows = 3
        let session = try demoSession(limits: limits)
        var numbers: [WindowNumber] = []
        for _ in 0..<5 {
            let number = try #require(session.openWindow(scene: "waiting").window)
            try session.dismissWindow(number)
            numbers.append(number)
        }
        #expect(session.closedWindows.map(\.number) == numbers.suffix(3).reversed())
    }

    @Test func theDefaultBoundIsTen() {
        #expect(SessionLimits().maxClosedWindows == 10)
    }

    @Test func reopeningRestoresTheGraphUnderANewNumber() throws {
        let session = try demoSession()
        let main = try mainOnDetail(session)
        let before = try session.window(main).graph.snapshot()
        try session.dismissWindow(main)
        let outcome = try session.reopenWindow("\(main)")
        let reopened = try #require(outcome.window)
        #expect(reopened != main)
        #expect(reopened == session.nextWindowNumber - 1)
        #expect(try session.window(reopened).graph.snapshot() == before)
        #expect(try session.window(reopened).activeScreen == "detail")
        #expect(outcome.events.contains(.windowOpened(reopened, scene: "main")))
    }

    @Test func reopeningRemovesTheWindowFromTheList() throws {
        let session = try demoSession()
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.dismissWindow(waiting)
        try session.reopenWindow("\(waiting)")
        #expect(session.closedWindows.isEmpty)
    }

    @Test func reopeningWithoutAnIdTakesTheMostRecent() throws {
        let session = try demoSession()
        let first = try #require(session.openWindow(scene: "waiting", params: ["reason": "a"]).window)
        let second = try #require(session.openWindow(scene: "waiting", params: ["reason": "b"]).window)
        try session.dismissWindow(first)
        try session.dismissWindow(second)
        try session.reopenWindow()
        #expect(session.closedWindows.map(\.number) == [first])
    }

    @Test func anUnknownIdIsUnknownClosedWindow() throws {
        let session = try demoSession()
        #expect(throws: SessionError.unknownClosedWindow("7")) { try session.reopenWindow("7") }
        #expect(throws: SessionError.unknownClosedWindow("")) { try session.reopenWindow() }
    }

    @Test func reopeningBeyondTheWindowLimitIsLimitsExceededAndKeepsTheEntry() throws {
        var limits = SessionLimits()
        limits.maxWindows = 1
        let session = try demoSession(limits: limits)
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.dismissWindow(waiting)
        try session.openWindow(scene: "waiting")
        #expect {
            try session.reopenWindow("\(waiting)")
        } throws: { error in
            if case SessionError.limitsExceeded = error { true } else { false }
        }
        #expect(session.closedWindows.map(\.number) == [waiting])
    }

    @Test func aSingleInstanceSceneReopensOnlyWhileNoneOfItsWindowsIsOpen() throws {
        let session = try demoSession()
        let main = try loggedInMain(session)
        try session.dismissWindow(main)
        try session.openWindow(scene: "main")
        #expect {
            try session.reopenWindow("\(main)")
        } throws: { error in
            if case SessionError.invalidArguments = error { true } else { false }
        }
    }

    @Test func aProtectedWindowThatRefusesToCloseIsNotRemembered() throws {
        let session = try demoSession()
        let main = try loggedInMain(session)
        try session.execute(window: main, command: .protect(reason: "unsaved"))
        #expect(throws: (any Error).self) { try session.dismissWindow(main) }
        #expect(session.closedWindows.isEmpty)
    }

    @Test func theListAndAReopenSurviveAKill() throws {
        let directory = temporaryDirectory()
        let reopened: WindowNumber
        let expected: [ClosedWindow]
        do {
            let session = try demoSession(directory: directory)
            let main = try mainOnDetail(session)
            let first = try #require(session.openWindow(scene: "waiting").window)
            let second = try #require(session.openWindow(scene: "waiting").window)
            try session.dismissWindow(first)
            try session.dismissWindow(main)
            try session.dismissWindow(second)
            reopened = try #require(session.reopenWindow("\(main)").window)
            expected = session.closedWindows
            // Dropped without close(): like SIGKILL, only what was written survives.
        }
        let restored = try demoSession(directory: directory)
        #expect(restored.closedWindows == expected)
        #expect(try restored.window(reopened).activeScreen == "detail")
        #expect(restored.nextWindowNumber == reopened + 1)
    }

    @Test func theListSurvivesACleanCloseInTheSnapshot() throws {
        let directory = temporaryDirectory()
        let expected: [ClosedWindow]
        do {
            let session = try demoSession(directory: directory)
            let main = try mainOnDetail(session)
            try session.dismissWindow(main)
            expected = session.closedWindows
            try session.close()
            session.store?.abandonForTesting()
        }
        let state = try String(contentsOfFile: directory + "/state.json", encoding: .utf8)
        #expect(state.contains(#""closed":[{"activeScreen":"detail""#))
        let restored = try demoSession(directory: directory)
        #expect(restored.closedWindows == expected)
        let reopened = try #require(restored.reopenWindow().window)
        #expect(try restored.window(reopened).activeScreen == "detail")
    }

    @Test func aJournalDismissLineWithoutClosedAtIsNotRemembered() throws {
        let line = #"{"op":"dismiss","sessionVersion":2,"window":1}"#
        let entry = try JSONDecoder().decode(JournalEntry.self, from: Data(line.utf8))
        #expect(entry == .dismiss(window: 1, sessionVersion: 2, closedAt: nil))
    }

    @Test func theListJSONNamesEachEntryByItsId() throws {
        let session = try demoSession()
        let waiting = try #require(session.openWindow(scene: "waiting").window)
        try session.dismissWindow(waiting)
        let json = try JSONSerialization.jsonObject(with: Data(session.closedWindowsJSON().utf8)) as? [[String: Any]]
        let entry = try #require(json?.first)
        #expect(entry["id"] as? String == "\(waiting)")
        #expect(entry["window"] as? Int == Int(waiting))
        #expect(entry["scene"] as? String == "waiting")
        #expect(entry["snapshot"] is [String: Any])
    }
}

extension ClosedWindowSessionTests {
    @Test func theSnapshotFilesDirectWriterWritesTheListAsTheEncoderDoes() throws {
        let session = try demoSession()
        let main = try mainOnDetail(session)
        try session.dismissWindow(main)
        let stored = session.storedState()
        #expect(stored.closed?.count == 1)
        #expect(try stored.json() == (try JSONOutput.encode(stored)))
    }
}
