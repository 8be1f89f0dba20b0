import NavigationCore
import Synchronization
import Testing

@testable import NavigationSession

/// Per-client shares of the session's limits (`SessionLimits.maxClientContentCost`, `maxClientWindows`,
/// `clientMessages`, `clientMessageBytes`): one client using up its share leaves the others theirs.
@Suite struct ClientBudgetTests {
    static let alice = ":1.10", bob = ":1.11"
    static let detailID = String(repeating: "7", count: 1000)

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let now = Mutex<UInt64>(1_000_000_000)
        var clock: SessionClock { SessionClock { self.now.withLock { $0 } } }
        func advance(milliseconds: UInt64) { now.withLock { $0 += milliseconds * 1_000_000 } }
    }

    /// Opens the demo's main window for `client` and logs in.
    func loggedIn(_ session: Session, by client: String?) throws -> WindowNumber {
        let number = try #require(session.openWindow(scene: "main", client: client).window)
        try session.execute(window: number, command: .switchModel(.screen("main")), client: client)
        return number
    }

    func push(_ session: Session, _ window: WindowNumber, by client: String?) throws(SessionError) {
        try session.execute(window: window, command: .stackAppend(.screen("detail", params: ["id": Self.detailID])), client: client)
    }

    /// The cost of one pushed detail and of a logged-in main window.
    func costs() throws -> (main: Int, detail: Int) {
        let session = try demoSession()
        let main = try loggedIn(session, by: nil)
        let before = try session.window(main).graph.contentCost
        try push(session, main, by: nil)
        return (before, try session.window(main).graph.contentCost - before)
    }

    /// A session in which a client's share holds a logged-in main window and `details` pushed details.
    func session(shareForDetails details: Int, clock: SessionClock = .monotonic) throws -> Session {
        let costs = try costs()
        return try demoSession(
            limits: SessionLimits(maxClientContentCost: costs.main + details * costs.detail), clock: clock)
    }

    @Test func aChangeOverTheClientsContentShareIsRefusedAndChangesNothing() throws {
        let session = try session(shareForDetails: 2)
        let main = try loggedIn(session, by: Self.alice)
        for _ in 0..<2 { try push(session, main, by: Self.alice) }
        let before = try session.window(main).graph.snapshot()
        let charged = session.contentCharged(to: Self.alice)
        do {
            try push(session, main, by: Self.alice)
            Issue.record("expected LimitsExceeded")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
            #expect(error.message.contains("per-client content share"))
        }
        #expect(try session.window(main).graph.snapshot() == before)
        #expect(session.contentCharged(to: Self.alice) == charged)
    }

    @Test func anotherClientStillChangesTheSameWindowWhenOneHasUsedItsShare() throws {
        let session = try session(shareForDetails: 2)
        let main = try loggedIn(session, by: Self.alice)
        for _ in 0..<2 { try push(session, main, by: Self.alice) }
        #expect(throws: SessionError.self) { try push(session, main, by: Self.alice) }
        try push(session, main, by: Self.bob)
        #expect(try session.openWindow(scene: "waiting", params: ["reason": "b"], client: Self.bob).window != nil)
    }

    @Test func checkRefusesWhatApplyWouldRefuseOverTheClientsShare() throws {
        let session = try session(shareForDetails: 0)
        let main = try loggedIn(session, by: Self.alice)
        let batch = #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"}}]}]"#
        #expect(throws: SessionError.self) { try session.dryRun(window: main, batchJSON: batch, client: Self.alice) }
        _ = try session.dryRun(window: main, batchJSON: batch, client: Self.bob)
    }

    @Test func shrinkingGivesBackTheSendersOwnChargeFirst() throws {
        let session = try session(shareForDetails: 4)
        let costs = try costs()
        let main = try loggedIn(session, by: Self.alice)
        try push(session, main, by: Self.alice)
        try push(session, main, by: Self.bob)
        try session.execute(window: main, command: .stackDropLast(1), client: Self.bob)
        #expect(session.contentCharged(to: Self.bob) == 0)
        #expect(session.contentCharged(to: Self.alice) == costs.main + costs.detail)
    }

    @Test func shrinkingBeyondTheSendersChargeGivesBackTheLargestChargesFirst() throws {
        let session = try session(shareForDetails: 4)
        let costs = try costs()
        let main = try loggedIn(session, by: nil)
        for _ in 0..<2 { try push(session, main, by: Self.alice) }
        try push(session, main, by: Self.bob)
        try session.execute(window: main, command: .stackDropLast(2), client: nil)
        #expect(session.contentCharged(to: Self.alice) == 0)
        #expect(session.contentCharged(to: Self.bob) == costs.detail)
    }

    @Test func closingAWindowGivesBackWhatItHeld() throws {
        let session = try session(shareForDetails: 2)
        let first = try loggedIn(session, by: Self.alice)
        try push(session, first, by: Self.alice)
        try session.dismissWindow(first)
        #expect(session.contentCharged(to: Self.alice) == 0)
        let second = try loggedIn(session, by: Self.alice)
        for _ in 0..<2 { try push(session, second, by: Self.alice) }
    }

    @Test func aClientLeavingIsForgottenAndItsContentStays() throws {
        let session = try session(shareForDetails: 1)
        let main = try loggedIn(session, by: Self.alice)
        try push(session, main, by: Self.alice)
        let content = session.contentLedger.total
        try session.clientVanished(uniqueName: Self.alice)
        #expect(session.contentCharged(to: Self.alice) == 0)
        #expect(session.windowsOpened(by: Self.alice) == 0)
        #expect(!session.isTracking(client: Self.alice))
        #expect(session.contentLedger.total == content)
        #expect(session.windows.count == 1)
    }

    @Test func changesWithoutAClientAreChargedToNoOne() throws {
        let session = try session(shareForDetails: 0)
        let main = try loggedIn(session, by: nil)
        for _ in 0..<3 { try push(session, main, by: nil) }
        try session.openURL("navsession-demo://detail/42")
        #expect(session.clientBudgets.content.isEmpty)
        #expect(session.clientBudgets.windows.isEmpty)
    }

    @Test func aRestoredSessionChargesNoOne() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            let main = try loggedIn(session, by: Self.alice)
            try push(session, main, by: Self.alice)
        }
        let restored = try demoSession(directory: directory)
        #expect(restored.windows.count == 1)
        #expect(restored.contentCharged(to: Self.alice) == 0)
        #expect(restored.windowsOpened(by: Self.alice) == 0)
    }

    @discardableResult
    func openWaiting(_ session: Session, by client: String?) throws(SessionError) -> SessionOutcome {
        try session.openWindow(scene: "waiting", params: ["reason": "r"], client: client)
    }

    @Test func aClientOverItsWindowShareIsRefusedAndOthersStillOpen() throws {
        let session = try demoSession(limits: SessionLimits(maxClientWindows: 2))
        for _ in 0..<2 { try openWaiting(session, by: Self.alice) }
        do {
            try openWaiting(session, by: Self.alice)
            Issue.record("expected LimitsExceeded")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
            #expect(error.message.contains("per-client window share"))
        }
        try openWaiting(session, by: Self.bob)
        try openWaiting(session, by: nil)
        #expect(session.windows.count == 4)
    }

    @Test func windowsAClientsBatchOpensCountInItsWindowShare() throws {
        let session = try demoSession(limits: SessionLimits(maxClientWindows: 2))
        let main = try loggedIn(session, by: Self.alice)
        let open = NavigationCommand.openWindow(scene: "waiting", params: ["reason": "r"])
        let outcome = try session.execute(window: main, command: open, client: Self.alice)
        #expect(outcome.events.contains { if case .windowOpened = $0 { true } else { false } })
        // Refused before anything applies, like a batch over the session's window limit.
        #expect {
            try session.execute(window: main, command: open, client: Self.alice)
        } throws: { error in
            guard case SessionError.limitsExceeded(let text) = error else { return false }
            return text.contains("per-client window share")
        }
        #expect(session.windowsOpened(by: Self.alice) == 2)
    }

    @Test func closingAWindowReturnsItToItsOpenersWindowShare() throws {
        let session = try demoSession(limits: SessionLimits(maxClientWindows: 1))
        let first = try #require(openWaiting(session, by: Self.alice).window)
        try session.dismissWindow(first)
        try openWaiting(session, by: Self.alice)
    }

    @Test func messagesOverTheClientsCountRateAreRefusedUntilTimeRefillsIt() throws {
        let clock = ManualClock()
        let session = try demoSession(
            limits: SessionLimits(clientMessages: RateLimit(perSecond: 10, burst: 3)), clock: clock.clock)
        let main = try loggedIn(session, by: nil)
        let model = try session.window(main).graph.activeModelID
        func send(_ client: String) throws(SessionError) {
            try session.sendMessage(window: main, to: model, NavigationMessage("ping"), client: client)
        }
        for _ in 0..<3 { try send(Self.alice) }
        do {
            try send(Self.alice)
            Issue.record("expected LimitsExceeded")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
            #expect(error.message.contains("per-client message rate"))
        }
        try send(Self.bob)
        clock.advance(milliseconds: 100)
        try send(Self.alice)
        #expect(throws: SessionError.self) { try send(Self.alice) }
    }

    @Test func messagesOverTheClientsByteRateAreRefused() throws {
        let clock = ManualClock()
        let session = try demoSession(
            limits: SessionLimits(clientMessageBytes: RateLimit(perSecond: 1000, burst: 2000)), clock: clock.clock)
        let main = try loggedIn(session, by: nil)
        let model = try session.window(main).graph.activeModelID
        let message = NavigationMessage("ping", payload: String(repeating: "p", count: 996))
        for _ in 0..<2 { try session.sendMessage(window: main, to: model, message, client: Self.alice) }
        #expect(throws: SessionError.self) { try session.sendMessage(window: main, to: model, message, client: Self.alice) }
        clock.advance(milliseconds: 1000)
        try session.sendMessage(window: main, to: model, message, client: Self.alice)
    }

    /// Batches that leave the graph as it was (a push and a pop) still cost their history bytes against the
    /// client's process (`SessionLimits.clientHistoryBytes`): past the burst its changes are refused, naming the
    /// share, and change nothing; another client still changes the same window; time refills the share.
    @Test func changesThatChangeNothingStillCostTheirClientsHistoryShare() throws {
        let clock = ManualClock()
        var limits = SessionLimits()
        limits.clientHistoryBytes = RateLimit(perSecond: 4096, burst: 8192)
        let session = try demoSession(limits: limits, clock: clock.clock)
        let main = try loggedIn(session, by: Self.alice)
        let pair = #"{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"\#(Self.detailID)"}}]},{"command":"stackDropLast"}"#
        let batch = "[" + Array(repeating: pair, count: 3).joined(separator: ",") + "]"
        var applied = 0
        var refusal: SessionError?
        while refusal == nil, applied < 100 {
            do {
                try session.apply(window: main, batchJSON: batch, client: Self.alice)
                applied += 1
            } catch {
                refusal = error
            }
        }
        #expect(applied >= 2 && applied <= 4, "\(applied) batches of about 3 KB within a burst of 8 KB")
        #expect(errorCase(refusal) == "limitsExceeded")
        #expect(refusal?.message.contains("per-client history share") == true, "\(String(describing: refusal))")
        let before = try session.window(main).version
        #expect(throws: SessionError.self) { try session.apply(window: main, batchJSON: batch, client: Self.alice) }
        #expect(try session.window(main).version == before, "a refused change changes nothing")
        try session.apply(window: main, batchJSON: batch, client: Self.bob)
        clock.advance(milliseconds: 4000)
        try session.apply(window: main, batchJSON: batch, client: Self.alice)
    }

    @Test func messagesWithoutAClientAreNotRateLimited() throws {
        let session = try demoSession(limits: SessionLimits(clientMessages: RateLimit(perSecond: 1, burst: 1)))
        let main = try loggedIn(session, by: nil)
        let model = try session.window(main).graph.activeModelID
        for _ in 0..<5 { try session.sendMessage(window: main, to: model, NavigationMessage("ping")) }
    }
}
