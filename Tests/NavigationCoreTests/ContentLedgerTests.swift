import Testing

@testable import NavigationCore

/// A window attached to a ``ContentLedger`` keeps the ledger's total equal to the attached windows' content.
struct ContentLedgerTests {
    func window() throws -> NavigationWindow {
        try NavigationWindow(root: .stacked(.screen("home")))
    }

    @Test func attachingAddsTheWindowsContentAndDetachingTakesItOut() throws {
        let ledger = ContentLedger()
        let (a, b) = (try window(), try window())
        a.contentLedger = ledger
        b.contentLedger = ledger
        #expect(ledger.total == a.contentCost + b.contentCost)
        a.contentLedger = nil
        #expect(ledger.total == b.contentCost)
    }

    @Test func attachingTwiceCountsOnce() throws {
        let ledger = ContentLedger()
        let a = try window()
        a.contentLedger = ledger
        a.contentLedger = ledger
        #expect(ledger.total == a.contentCost)
    }

    @Test func committedChangesMoveTheTotal() throws {
        let ledger = ContentLedger()
        let a = try window()
        a.contentLedger = ledger
        try a.execute(.stackAppend(.screen("detail", params: ["id": "42"], title: "Item 42")))
        #expect(ledger.total == a.contentCost)
        try a.execute(.stackDropLast(1))
        #expect(ledger.total == a.contentCost)
    }

    @Test func failedAndDryRunChangesLeaveTheTotalAlone() throws {
        let ledger = ContentLedger()
        let a = try window()
        a.contentLedger = ledger
        let before = ledger.total
        #expect(throws: NavigationError.self) {
            try a.apply([BatchCommand(.stackAppend(.screen("detail"))), BatchCommand(.tabsSelectItem("nope"))])
        }
        _ = try a.dryRun([BatchCommand(.stackAppend(.screen("detail", params: ["id": "1"])))])
        #expect(ledger.total == before)
    }

    @Test func movingAWindowToAnotherLedgerMovesItsContent() throws {
        let (first, second) = (ContentLedger(), ContentLedger())
        let a = try window()
        a.contentLedger = first
        a.contentLedger = second
        #expect(first.total == 0)
        #expect(second.total == a.contentCost)
    }
}
