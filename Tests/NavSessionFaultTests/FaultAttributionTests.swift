import Foundation
import NavigationCore
@testable import navsession_load
import Testing

/// The load tool's verifier attributes what it finds to the fault that started the restore
/// (`navsession-load fault --replaces` / `--second-daemons`).
struct FaultAttributionTests {
    static let login = LoadCommand.switchModel(screen: "main")

    /// A takeover whose new daemon loaded v1 while the old one acknowledged v2, then acknowledged v2 itself.
    @Test func aVersionAcknowledgedAgainAfterATakeoverIsLostAndReusedByTheReplace() throws {
        let context = try ReplayContext()
        let window = try context.openedWindow(scene: "main")
        _ = try window.apply(try Self.login.batch(scene: "main", context: context))
        let restored = try Self.json(window.snapshot())
        let select = LoadCommand.tabsSelectItem(tab: "settings")
        _ = try window.apply(try select.batch(scene: "main", context: context))
        let final = try Self.json(window.snapshot())

        let data = RunData(
            windows: [1: "main"],
            records: [
                CallRecord(client: -1, window: 1, command: Self.login, generation: 0, outcome: .acknowledged(version: 1), micros: 1),
                CallRecord(client: 0, window: 1, command: .stackAppend(screen: "detail", params: ["id": "1"]), generation: 0,
                           outcome: .acknowledged(version: 2), micros: 1),
                CallRecord(client: 1, window: 1, command: select, generation: 1, outcome: .acknowledged(version: 2), micros: 1),
            ],
            changes: [], generations: [:], restores: [1: [1: restored]], final: [1: final], faults: true,
            faultOf: [1: .replace])
        let verification = Verifier(data: data, context: context).verify()
        #expect(verification.lostByFault == ["replace": 1], "\(verification.problems)")
        #expect(verification.reusedByFault == ["replace": 1], "\(verification.problems)")
        #expect(verification.firstLost.count == 1 && verification.firstReused.count == 1)
    }

    /// A window a restart no longer lists: every version acknowledged before it is lost, to that fault.
    @Test func aWindowMissingFromARestoreLosesEveryVersionAcknowledgedBefore() throws {
        let context = try ReplayContext()
        let window = try context.openedWindow(scene: "main")
        _ = try window.apply(try Self.login.batch(scene: "main", context: context))
        let data = RunData(
            windows: [1: "main"],
            records: [
                CallRecord(client: -1, window: 1, command: Self.login, generation: 0, outcome: .acknowledged(version: 1), micros: 1),
                CallRecord(client: 0, window: 1, command: .tabsSelectItem(tab: "settings"), generation: 0,
                           outcome: .acknowledged(version: 2), micros: 1),
            ],
            changes: [], generations: [:], restores: [1: [:]], final: [:], faults: true, faultOf: [1: .secondDaemon])
        let verification = Verifier(data: data, context: context).verify()
        #expect(verification.lost == 2)
        #expect(verification.lostByFault == ["second daemon": 2])
        #expect(verification.problems == [
            "window 1 is missing from the state restored after fault 1 (second daemon): its 2 acknowledged versions are lost",
        ])
    }

    private static func json(_ snapshot: WindowSnapshot) throws -> String {
        String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
    }
}
