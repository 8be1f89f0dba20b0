import DBusTestSupport
import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// The journal line and cause JSON assembled around one encoding of the batch must be byte-identical to
/// encoding the whole entry (journals written before and after the shortcut are the same format).
struct JournalLineTests {
    static let batches: [[BatchCommand]] = [
        [BatchCommand(.stackAppend([StackElementSpec(.screen("detail", params: ["id": "1"]), transition: "fade/in")]))],
        [BatchCommand(.stackDropLast(1))],
        [
            BatchCommand(.switchModel(.screen("main", params: ["b": "x/y", "a": "é \"q\" \\ \u{1}"])), from: ModelID(7)),
            BatchCommand(.openURL("navsession-demo://detail/42"), animated: false),
            BatchCommand(.present(.sheet(.stacked(.screen("editor", params: ["id": "42", "Z": "", "_": "1"]))))),
            BatchCommand(.sequence([.dismiss, .tabsSelectItem("settings"), .trigger(name: "t", payload: "{}")])),
        ],
    ]

    /// Every command the direct encoder handles, with and without `from`/`animated`, alone and mixed (a deep link
    /// into the demo's tabs carries `tabsSelectItem`: their reselect policy pops the selected tab).
    static let stringFree: [[BatchCommand]] = {
        let commands: [NavigationCommand] = [
            .stackDropLast(1), .stackDropLast(0), .stackDropLast(-3), .stackDropLast(Int.max), .stackDropToRoot,
            .dismiss, .dismissJustFromPresented, .hide, .tabsSelectItem("settings"), .tabsSelectItem(""),
        ]
        var batches: [[BatchCommand]] = []
        for command in commands {
            for from in [nil, ModelID(0), ModelID(42), ModelID(rawValue: -1)] {
                for animated in [true, false] { batches.append([BatchCommand(command, from: from, animated: animated)]) }
            }
        }
        batches.append(commands.enumerated().map { BatchCommand($1, from: $0 % 2 == 0 ? nil : ModelID(rawValue: $0), animated: $0 % 3 != 0) })
        return batches
    }()

    @Test(arguments: stringFree) func directEncodingMatchesJSONEncoder(batch: [BatchCommand]) throws {
        let direct = try #require(JournalLine.encodeDirect(batch))
        #expect(String(decoding: direct, as: UTF8.self) == (try Self.reference(batch)))
    }

    @Test func directEncodingDeclinesOtherCommands() {
        #expect(JournalLine.encodeDirect([BatchCommand(.stackDropLast(1)), BatchCommand(.goBack)]) == nil)
        #expect(JournalLine.encodeDirect([BatchCommand(.tabsSelectItem("réglages"))]) == nil)
        #expect(JournalLine.encodeDirect([BatchCommand(.sequence([.dismiss]))]) == nil)
        #expect(JournalLine.encodeDirect([BatchCommand(.stackAppend([StackElementSpec(.stack([.screen("a")]))]))]) == nil)
    }

    @Test func directEncodingDeclinesNonASCIIText() {
        for params in [["é": "1"], ["id": "é"]] {
            #expect(JournalLine.encodeDirect([BatchCommand(.stackAppend([StackElementSpec(.screen("a", params: params))]))]) == nil)
        }
        #expect(JournalLine.encodeDirect([BatchCommand(.stackAppend([StackElementSpec(.screen("détail"))]))]) == nil)
    }

    /// `stackAppend` of plain screens with random ASCII names, params (keys in every order, every escape),
    /// titles and transitions: the direct bytes are JSONEncoder's.
    @Test func directStackAppendMatchesJSONEncoderOnRandomASCII() throws {
        var random = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &random)
        var generator = SplitMix64(seed: seed)
        func text(_ maxLength: Int) -> String {
            let length = Int.random(in: 0...maxLength, using: &generator)
            // Weighted toward the characters that sort or escape differently.
            let pool = Array(#"aAzZ09_-/."\ {}:,"#.utf8) + [0, 1, 8, 9, 10, 12, 13, 31, 127]
            return String(decoding: (0..<length).map { _ in
                Bool.random(using: &generator) ? pool.randomElement(using: &generator)! : UInt8.random(in: 0..<128, using: &generator)
            }, as: UTF8.self)
        }
        for _ in 0..<500 {
            var elements: [StackElementSpec] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                var params: [String: String] = [:]
                for _ in 0..<Int.random(in: 0...6, using: &generator) { params[text(6)] = text(8) }
                var model = ModelSpec.screen(text(10).isEmpty ? "s" : text(10), params: params)
                if Bool.random(using: &generator) { model.title = text(8) }
                elements.append(StackElementSpec(model, transition: Bool.random(using: &generator) ? text(5) : nil))
            }
            let from: ModelID? = Bool.random(using: &generator) ? ModelID(rawValue: Int.random(in: 0...99, using: &generator)) : nil
            var batch = [BatchCommand(.stackAppend(elements), from: from, animated: Bool.random(using: &generator))]
            // A deep link's batch: a tab selection, then the pushes.
            if Bool.random(using: &generator) { batch.insert(BatchCommand(.tabsSelectItem(text(8)), from: from), at: 0) }
            let direct = try #require(JournalLine.encodeDirect(batch), "seed \(seed)")
            #expect(String(decoding: direct, as: UTF8.self) == (try Self.reference(batch)), "seed \(seed)")
        }
    }

    static func reference(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(arguments: batches) func batchLineMatchesTheEncodedEntry(batch: [BatchCommand]) throws {
        let encoded = try #require(SessionStore.encodeBatch(batch))
        for (window, version) in [(WindowNumber(1), 1), (4_000_000_000, Int.max)] {
            let line = JournalLine.batch(window: window, version: version, encodedBatch: encoded)
            let entry = JournalEntry.batch(window: window, batch: batch, version: version)
            #expect(String(decoding: line, as: UTF8.self) == (try Self.reference(entry)))
        }
    }

    @Test(arguments: batches) func causeMatchesTheEncodedCause(batch: [BatchCommand]) throws {
        let encoded = try #require(SessionStore.encodeBatch(batch))
        #expect(JournalLine.cause(encodedBatch: encoded) == (try Self.reference(ChangeCause.commands(batch))))
    }

    @Test func eachChangeEventCarriesItsEncodedCause() throws {
        let session = try demoSession(directory: temporaryDirectory())
        let main = try loggedInMain(session)
        let outcome = try session.execute(window: main, command: .stackAppend([StackElementSpec(.screen("detail", params: ["id": "1"]))]))
        guard case .changed(main, let change, _, let causeJSON) = try #require(outcome.events.first) else {
            Issue.record("the first event is not the change: \(outcome.events)")
            return
        }
        #expect(causeJSON == (try Self.reference(change.cause)))
    }

    @Test func aSessionInMemoryEncodesTheCauseToo() throws {
        let session = try Session(manifest: try Manifest.demo(), store: nil)
        let main = try #require(try session.openWindow(scene: "main").window)
        let outcome = try session.execute(window: main, command: .switchModel(.screen("main")))
        let causes = outcome.events.compactMap { if case .changed(_, let change, _, let json) = $0 { (change, json) } else { nil } }
        #expect(!causes.isEmpty)
        for (change, json) in causes { #expect(json == (try Self.reference(change.cause))) }
    }
}
