import Testing

@testable import DBusKit

/// The per-peer bound on replies not yet shown read (``ReplyLedger``).
struct ReplyLedgerTests {
    @Test func aPeerPastThePingThresholdIsPingedOnce() {
        var ledger = ReplyLedger()
        let below = ledger.sent(ReplyLedger.pingThreshold - 1, to: ":1.1")
        let crossing = ledger.sent(1, to: ":1.1")
        let again = ledger.sent(ReplyLedger.pingThreshold, to: ":1.1")
        #expect(!below && crossing && !again)
    }

    @Test func anAnsweredPingConfirmsWhatWasSentBeforeIt() {
        var ledger = ReplyLedger()
        _ = ledger.sent(ReplyLedger.pingThreshold, to: ":1.1")
        _ = ledger.sent(100, to: ":1.1")
        ledger.confirmed(":1.1")
        #expect(ledger.peers[":1.1"]?.unconfirmed == 100)
        #expect(ledger.total == 100)
    }

    @Test func aPeerOverItsBudgetIsRefusedThenIgnored() {
        var ledger = ReplyLedger()
        _ = ledger.sent(ReplyLedger.peerBudget, to: ":1.1")
        guard case .refuse(let reason) = ledger.admission(of: ":1.1") else {
            Issue.record("expected a refusal")
            return
        }
        #expect(reason.contains("not read yet"))
        _ = ledger.sent(ReplyLedger.ignoreAllowance, to: ":1.1")
        #expect(ledger.admission(of: ":1.1") == .ignore)
        #expect(ledger.admission(of: ":1.2") == .admit)
    }

    @Test func aCaughtUpPeerMayFetchOneLargeDocument() {
        let ledger = ReplyLedger()
        #expect(ledger.refusal(ofReply: ReplyLedger.peerBudget * 2, to: ":1.1") == nil)
    }

    @Test func aLargeReplyBehindUnreadOnesIsRefused() {
        var ledger = ReplyLedger()
        _ = ledger.sent(ReplyLedger.peerBudget / 2, to: ":1.1")
        #expect(ledger.refusal(ofReply: ReplyLedger.peerBudget / 2 + 1, to: ":1.1") != nil)
        #expect(ledger.refusal(ofReply: ReplyLedger.smallReply, to: ":1.1") == nil)
    }

    @Test func largeRepliesStopWhenAllPeersTogetherHoldTheTotalBudget() {
        var ledger = ReplyLedger()
        for peer in 0..<(ReplyLedger.totalBudget / ReplyLedger.peerBudget) {
            _ = ledger.sent(ReplyLedger.peerBudget, to: ":1.\(peer)")
        }
        #expect(ledger.refusal(ofReply: ReplyLedger.smallReply + 1, to: ":2.1")?.contains("in all") == true)
    }

    @Test func aPeerMayHaveOnlyAFewRepliesBuiltAtOnce() {
        var ledger = ReplyLedger()
        for _ in 0..<ReplyLedger.maximumBuilding { #expect(ledger.startBuilding(for: ":1.1") == nil) }
        #expect(ledger.startBuilding(for: ":1.1")?.contains("still being built") == true)
        #expect(ledger.startBuilding(for: ":1.2") == nil)
        ledger.finishedBuilding(for: ":1.1")
        #expect(ledger.startBuilding(for: ":1.1") == nil)
    }

    @Test func aPeerThatLeftIsForgotten() {
        var ledger = ReplyLedger()
        _ = ledger.sent(ReplyLedger.pingThreshold, to: ":1.1")
        ledger.pingFailed(":1.1", gone: true)
        #expect(ledger.peers[":1.1"] == nil)
        #expect(ledger.total == 0)
    }

    @Test func quietPeersAreForgottenWhenTooManyAreTracked() {
        var ledger = ReplyLedger()
        for peer in 0..<ReplyLedger.maximumPeers { _ = ledger.sent(10, to: ":1.\(peer)") }
        _ = ledger.sent(10, to: ":2.1")
        #expect(ledger.peers.count == 1)
    }
}
