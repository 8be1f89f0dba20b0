import DBusTestSupport
import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Snapshot files and `GetState` are written directly (``WindowSnapshot/json()``, ``StoredSession/json()``);
/// the bytes must be `JSONEncoder`'s, so files written before and after read alike.
struct DirectJSONTests {
    static func reference(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func direct(_ snapshot: WindowSnapshot) throws -> [UInt8] {
        try snapshot.json()
    }

    @Test(arguments: [0, 7, 9, 10, 99, 100, 4_096, -1, -10, -999, 1_234_567_890, Int.max, Int.min])
    func decimalWritesWhatStringWrites(_ value: Int) {
        #expect(DirectJSON.decimal(value) == String(value))
        var bytes: [UInt8] = []
        DirectJSON.appendInteger(value, to: &bytes)
        #expect(bytes == Array(String(value).utf8))
    }

    @Test func integersWiderThanIntAreWrittenInFull() {
        var bytes: [UInt8] = []
        DirectJSON.appendInteger(UInt64.max, to: &bytes)
        #expect(bytes == Array("18446744073709551615".utf8))
    }

    /// No parameters and one parameter take a path of their own (nothing to sort).
    @Test(arguments: [[:], ["id": "42"], ["q\"\\\n": "a/b\u{1}"], ["b": "2", "a": "1", "c": "3"]] as [[String: String]])
    func stringDictionariesAreJSONEncodersBytes(_ params: [String: String]) throws {
        var bytes: [UInt8] = []
        #expect(DirectJSON.appendStringDictionary(params, to: &bytes))
        #expect(bytes == (try Self.reference(params)))
    }

    @Test func aNonASCIIParameterIsLeftToJSONEncoder() {
        var bytes: [UInt8] = []
        #expect(!DirectJSON.appendStringDictionary(["id": "é"], to: &bytes))
    }

    @Test func aPopulatedSessionSnapshotIsJSONEncodersBytes() throws {
        let session = try demoSession(directory: temporaryDirectory())
        let main = try loggedInMain(session)
        try session.openURL("navsession-demo://detail/42")
        try session.execute(window: main, command: .present(.sheet(.stacked(.screen("editor", params: ["id": "42"])))))
        try session.execute(window: main, command: .present(.alert(DialogContent(title: "Sûr ?", message: "x\n\"y\""))))
        let waiting = try #require(session.openWindow(scene: "waiting", params: ["reason": "a/b"]).window)
        try session.setCloseOnExit(window: waiting, owner: ":1.5")
        let state = session.storedState()
        #expect(try state.json() == (try Self.reference(state)))
        for window in session.windows {
            let snapshot = window.graph.snapshot()
            #expect(try Self.direct(snapshot) == (try Self.reference(snapshot)))
        }
    }

    @Test func scheduledBatchesAreJSONEncodersBytes() throws {
        // `scheduled` and `nextScheduleNumber` sit between the other top-level keys.
        let window = try NavigationWindow(root: ModelSpec.stack([.screen("home"), .screen("detail")]))
        try window.execute(.schedule([BatchCommand(.dismiss, from: .tag("t"))], afterMs: 5))
        try window.execute(.schedule([BatchCommand(.stackDropLast)], afterMs: 5, id: "x/y", overdue: .drop))
        let snapshot = window.snapshot()
        #expect(try Self.direct(snapshot) == (try Self.reference(snapshot)))
    }

    @Test func historyEntriesAreJSONEncodersBytes() throws {
        // The snapshot file's history writes each entry directly, a batch's `redo` as the journal does.
        let window = try NavigationWindow(root: ModelSpec.stack([.screen("home")]))
        let history = StoredHistory(
            base: window.snapshot(),
            entries: [
                StoredHistory.Entry(
                    redo: .batch(window: 1, batch: [BatchCommand(.stackAppend([StackElementSpec(.screen("detail", params: ["id": "a/b"]))]))], version: 1),
                    activeScreen: "detail", time: 1_764_210_000_000, cause: nil),
                StoredHistory.Entry(
                    redo: .report(window: 1, report: .poppedTo(stack: ModelID(rawValue: 1), index: 0), version: 2), activeScreen: "home", time: nil,
                    cause: .commands([BatchCommand(.goBack(result: nil))])),
            ])
        var direct: [UInt8] = []
        #expect(try history.appendJSON(to: &direct))
        #expect(direct == (try JSONOutput.encode(history)))
    }

    @Test func taggedModelsAreJSONEncodersBytes() throws {
        let window = try NavigationWindow(
            root: ModelSpec.stack([.screen("home", title: "Home", tag: "base"), .screen("detail", params: ["id": "1"], tag: "in\"box")])
                .tagged("stack"))
        let snapshot = window.snapshot()
        #expect(try Self.direct(snapshot) == (try Self.reference(snapshot)))
        #expect(String(decoding: try Self.direct(snapshot), as: UTF8.self).contains(#""screen":"home","tag":"base","title":"Home""#))
    }

    /// Deep stacks of screens with random ASCII names, params, titles and transitions (every escape, keys in
    /// every order), and the non-ASCII cases that go to JSONEncoder.
    @Test func randomStacksAreJSONEncodersBytes() throws {
        var seeds = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &seeds)
        var random = SplitMix64(seed: seed)
        func text(_ maxLength: Int) -> String {
            let pool = Array(#"aAzZ09_-/."\ {}:,"#.utf8) + [1, 8, 9, 10, 12, 13, 31, 127]
            let bytes = (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in
                Bool.random(using: &random) ? pool.randomElement(using: &random)! : UInt8.random(in: 1..<128, using: &random)  // NUL is refused by the graph
            }
            let ascii = String(decoding: bytes, as: UTF8.self)
            return Int.random(in: 0..<20, using: &random) == 0 ? ascii + "é" : ascii
        }
        for _ in 0..<100 {
            let elements = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                var params: [String: String] = [:]
                for _ in 0..<Int.random(in: 0...4, using: &random) { params[text(5)] = text(8) }
                var spec = ModelSpec.screen("s" + text(6), params: params)
                if Bool.random(using: &random) { spec.title = text(8) }
                return StackElementSpec(spec, transition: Bool.random(using: &random) ? text(4) : nil)
            }
            let root = ModelSpec(
                screen: "stack", content: .stack(path: elements, hidesTabBarWhenNotAtRoot: Bool.random(using: &random)))
            let window = try NavigationWindow(root: root)
            let snapshot = window.snapshot()
            #expect(try Self.direct(snapshot) == (try Self.reference(snapshot)), "seed \(seed)")
        }
    }
}
