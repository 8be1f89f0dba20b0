import Foundation
import NavigationCore
@testable import navsession_load
import Testing

/// The load tool's verifier on hand-made runs: what it must accept and what it must reject.
struct VerifierTests {
    /// A kill right after a change was journaled, before its reply: the change (v3) is in the restored state,
    /// and the next daemon acknowledges v3 for a call that changed nothing there (`stackDropToRoot` at the
    /// root). That acknowledgement is not how v3 was made — replayed on v2 it would pop the detail — so the
    /// unanswered call must be tried for v3. (A run once failed this way: seed 1616586792, window 4.)
    @Test func aNoOpAcknowledgedAfterARestartDoesNotHideTheUnansweredChange() throws {
        let context = try ReplayContext()
        let window = try context.openedWindow(scene: "main")
        let login = LoadCommand.switchModel(screen: "main")
        let push = LoadCommand.stackAppend(screen: "detail", params: ["id": "1"])
        let lostReply = LoadCommand.tabsSelectItem(tab: "settings")
        for command in [login, push, lostReply] {
            _ = try window.apply(try command.batch(scene: "main", context: context))
        }
        let restored = try Self.json(window.snapshot())
        #expect(window.snapshot().version == 3)

        let dropToRoot = LoadCommand.apply(batchJSON: #"[{"command":"stackDropToRoot"}]"#)
        let data = RunData(
            windows: [1: "main"],
            records: [
                CallRecord(client: -1, window: 1, command: login, generation: 0, outcome: .acknowledged(version: 1), micros: 1),
                CallRecord(client: 0, window: 1, command: push, generation: 0, outcome: .acknowledged(version: 2), micros: 1),
                CallRecord(client: 0, window: 1, command: lostReply, generation: 0, outcome: .unknown(error: "NoReply"), micros: 1),
                CallRecord(client: 0, window: 1, command: dropToRoot, generation: 1, outcome: .acknowledged(version: 3), micros: 1),
            ],
            changes: [], generations: [:], restores: [1: [1: restored]], final: [1: restored], faults: true)
        let verification = Verifier(data: data, context: context).verify()
        #expect(verification.problems.isEmpty, "\(verification.problems)")
        #expect(verification.matchedToUnanswered == 1)
    }

    /// The same run with the restored state missing the pushed detail is a lost change, and is reported.
    @Test func aRestoredStateThatNoCandidateExplainsIsReported() throws {
        let context = try ReplayContext()
        let window = try context.openedWindow(scene: "main")
        let login = LoadCommand.switchModel(screen: "main")
        _ = try window.apply(try login.batch(scene: "main", context: context))
        _ = try window.apply(try LoadCommand.tabsSelectItem(tab: "settings").batch(scene: "main", context: context))
        let restored = try Self.json(window.snapshot())

        let data = RunData(
            windows: [1: "main"],
            records: [
                CallRecord(client: -1, window: 1, command: login, generation: 0, outcome: .acknowledged(version: 1), micros: 1),
                CallRecord(client: 0, window: 1, command: .stackAppend(screen: "detail", params: ["id": "1"]), generation: 0,
                           outcome: .unknown(error: "NoReply"), micros: 1),
            ],
            changes: [], generations: [:], restores: [1: [1: restored]], final: [1: restored], faults: true)
        let verification = Verifier(data: data, context: context).verify()
        #expect(verification.problems.count == 1, "\(verification.problems)")
    }

    private static func json(_ snapshot: WindowSnapshot) throws -> String {
        String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
    }
}
