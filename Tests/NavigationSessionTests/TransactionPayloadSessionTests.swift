import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// `Apply`'s `transaction` option through the session: in the cause, in the journal, across a restart.
struct TransactionPayloadSessionTests {
    static let payload = JSONValue.object(["source": .string("swipe")])
    static let append = #"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#

    static func cause(_ outcome: SessionOutcome, _ number: WindowNumber) -> String? {
        outcome.events.compactMap { if case .changed(number, _, _, let cause) = $0 { cause } else { nil } }.last
    }

    @Test func theTransactionOptionRidesInTheCauseAsTheBatchsLastEntry() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.execute(window: number, command: .switchModel(.screen("main")))
        let outcome = try session.apply(window: number, batchJSON: Self.append, transaction: Self.payload)
        let cause = try #require(Self.cause(outcome, number))
        #expect(cause.hasSuffix(#"{"command":"transaction","payload":{"source":"swipe"}}]}"#), "\(cause)")
    }

    @Test func theOptionAndAnEntryTogetherAreInvalidArguments() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let batch = #"[{"command":"transaction","payload":{"a":1}},{"command":"stackAppend","models":[{"screen":"about"}]}]"#
        #expect(throws: SessionError.self) {
            try session.apply(window: number, batchJSON: batch, transaction: Self.payload)
        }
    }

    @Test func aTransactionIsKeptInTheJournalAndTheRestoredWindowReplaysIt() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        let version: Int
        do {
            let session = try demoSession(directory: directory)
            number = try #require(session.openWindow(scene: "main").window)
            try session.execute(window: number, command: .switchModel(.screen("main")))
            try session.apply(window: number, batchJSON: Self.append, transaction: Self.payload)
            version = try session.window(number).version
        }
        let journal = try String(contentsOfFile: directory + "/journal.jsonl", encoding: .utf8)
        #expect(journal.contains(#"{"command":"transaction","payload":{"source":"swipe"}}"#), "\(journal)")
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(number).version == version)
        #expect(try restored.window(number).activeScreen == "about")
    }
}
