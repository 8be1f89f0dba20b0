import NavigationCore
import Testing

@testable import NavigationSession

/// The session's content budget across all windows (`SessionLimits.maxSessionContentCost`), and the ledger that
/// keeps its sum current so checking it costs the same with 1 or 256 windows open.
@Suite struct SessionContentTests {
    /// The sum the ledger must always equal, counted the slow way.
    func summed(_ session: Session) -> Int {
        session.windows.reduce(0) { $0 + $1.graph.contentCost }
    }

    func pushDetail(_ session: Session, _ window: WindowNumber, _ id: Int) throws(SessionError) {
        try session.execute(window: window, command: .stackAppend(.screen("detail", params: ["id": "\(id)"])))
    }

    /// Content costs of the demo's logged-in main window, a waiting window opened with `reason` and one
    /// pushed detail.
    func probeCosts(reason: String = "a") throws -> (main: Int, waiting: Int, detail: Int) {
        let session = try demoSession()
        let main = try loggedInMain(session)
        let mainCost = try session.window(main).graph.contentCost
        let waiting = try #require(session.openWindow(scene: "waiting", params: ["reason": reason]).window)
        try pushDetail(session, main, 1)
        return (mainCost, try session.window(waiting).graph.contentCost, try session.window(main).graph.contentCost - mainCost)
    }

    @Test func ledgerIsTheSumOfTheOpenWindowsThroughOpensChangesAndDismissals() throws {
        let session = try demoSession()
        #expect(session.contentLedger.total == 0)
        let main = try loggedInMain(session)
        var waiting: [WindowNumber] = []
        for reason in ["a", "bb", "ccc"] {
            waiting.append(try #require(session.openWindow(scene: "waiting", params: ["reason": reason]).window))
            #expect(session.contentLedger.total == summed(session))
        }
        for id in 1...5 { try pushDetail(session, main, id) }
        #expect(session.contentLedger.total == summed(session))
        try session.execute(window: main, command: .stackDropLast(2))
        #expect(session.contentLedger.total == summed(session))
        try session.openURL("navsession-demo://detail/42")
        #expect(session.contentLedger.total == summed(session))
        try session.dismissWindow(waiting[1])
        #expect(session.contentLedger.total == summed(session))
        try session.dismissWindow(main)
        #expect(session.contentLedger.total == summed(session))
        for number in [waiting[0], waiting[2]] { try session.dismissWindow(number) }
        #expect(session.contentLedger.total == 0)
    }

    @Test func failedChangeLeavesTheLedgerAlone() throws {
        let session = try demoSession()
        let main = try loggedInMain(session)
        let before = session.contentLedger.total
        let batch = [BatchCommand(.stackAppend(.screen("detail", params: ["id": "1"]))), BatchCommand(.tabsSelectItem("nope"))]
        #expect(throws: SessionError.self) { try session.apply(window: main, batch: batch) }
        #expect(session.contentLedger.total == before)
    }

    @Test func ledgerIsTheSumAfterRestoringFromSnapshotAndJournal() throws {
        let directory = temporaryDirectory()
        do {
            // A compaction after 4 lines: the restore reads a snapshot and then replays journal lines.
            let session = try demoSession(directory: directory, compactionInterval: 4)
            let main = try loggedInMain(session)
            let gone = try #require(session.openWindow(scene: "waiting", params: ["reason": "x"]).window)
            for id in 1...6 { try pushDetail(session, main, id) }
            try session.dismissWindow(gone)
            try session.openWindow(scene: "waiting", params: ["reason": "kept"])
            #expect(session.contentLedger.total == summed(session))
        }
        let restored = try demoSession(directory: directory, compactionInterval: 4)
        #expect(restored.windows.count == 2)
        #expect(restored.contentLedger.total == summed(restored))
    }

    @Test func changeOverTheSessionBudgetIsRefusedAndChangesNothing() throws {
        let costs = try probeCosts()
        // Room for both windows and exactly one pushed detail.
        let session = try demoSession(limits: SessionLimits(maxSessionContentCost: costs.main + costs.waiting + costs.detail))
        let main = try loggedInMain(session)
        try session.openWindow(scene: "waiting", params: ["reason": "a"])
        try pushDetail(session, main, 1)
        let before = try session.window(main).graph.snapshot()
        do {
            try pushDetail(session, main, 2)
            Issue.record("expected LimitsExceeded")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
            #expect(error.message.contains("across all windows"))
        }
        #expect(try session.window(main).graph.snapshot() == before)
        #expect(session.contentLedger.total == summed(session))
    }

    @Test func dismissingAWindowReturnsItsContentToTheBudget() throws {
        // A waiting window that holds more than a detail, so closing it makes room for one.
        let reason = String(repeating: "x", count: 300)
        let costs = try probeCosts(reason: reason)
        #expect(costs.waiting > costs.detail)
        let session = try demoSession(limits: SessionLimits(maxSessionContentCost: costs.main + costs.waiting + costs.detail))
        let main = try loggedInMain(session)
        let waiting = try #require(session.openWindow(scene: "waiting", params: ["reason": reason]).window)
        try pushDetail(session, main, 1)
        #expect(throws: SessionError.self) { try pushDetail(session, main, 2) }
        try session.dismissWindow(waiting)
        try pushDetail(session, main, 2)
        #expect(session.contentLedger.total == summed(session))
    }

    @Test func openingAWindowOverTheSessionBudgetIsRefused() throws {
        let costs = try probeCosts()
        let session = try demoSession(limits: SessionLimits(maxSessionContentCost: costs.main + costs.waiting - 1))
        _ = try loggedInMain(session)
        do {
            try session.openWindow(scene: "waiting", params: ["reason": "a"])
            Issue.record("expected LimitsExceeded")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
        }
        #expect(session.windows.count == 1)
        #expect(session.contentLedger.total == summed(session))
    }
}
