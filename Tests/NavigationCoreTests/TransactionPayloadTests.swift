import Foundation
import Testing

@testable import NavigationCore

/// A change's transaction payload (`{"command":"transaction","payload":{…}}`).
struct TransactionPayloadTests {
    static let payload = JSONValue.object(["animation": .string("spring"), "duration": .number(0.3)])

    @Test func aTransactionTravelsInTheCauseOfTheChangeItRidesWith() throws {
        let window = try makeWindow(.stacked(home))
        let batch = [BatchCommand(.stackAppend(detail)), BatchCommand(.transaction(Self.payload))]
        let event = try window.apply(batch)
        #expect(event.version == 1 && event.started == [3])
        #expect(event.cause == .commands(batch))
        #expect(batch.transactionPayload == Self.payload)
    }

    @Test func aBatchOfOnlyATransactionIsANoOp() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.apply([BatchCommand(.transaction(Self.payload))])
        #expect(event.isNoOp && window.version == 0)
    }

    @Test func aSecondTransactionInOneBatchIsRefusedAndNothingChanges() throws {
        let window = try makeWindow(.stacked(home))
        let before = window.snapshot()
        let error = navigationError { () throws(NavigationError) in
            try window.apply([
                BatchCommand(.transaction(Self.payload)), BatchCommand(.stackAppend(detail)),
                BatchCommand(.transaction(Self.payload)),
            ])
        }
        guard case .batchCommandFailed(index: 2, .limitsExceeded(let message))? = error else {
            Issue.record("expected limitsExceeded at command 2, got \(String(describing: error))")
            return
        }
        #expect(message.contains("at most one transaction payload"))
        #expect(window.snapshot() == before && window.version == 0)
    }

    @Test func aTransactionPayloadOverTheTextLimitIsLimitsExceeded() throws {
        let window = try makeWindow(.stacked(home))
        let large = JSONValue.object(["text": .string(String(repeating: "x", count: 4100))])
        let error = navigationError { () throws(NavigationError) in
            try window.apply([BatchCommand(.stackAppend(detail)), BatchCommand(.transaction(large))])
        }
        guard case .batchCommandFailed(index: 1, .limitsExceeded)? = error else {
            Issue.record("expected limitsExceeded, got \(String(describing: error))")
            return
        }
        #expect(window.version == 0)
    }

    @Test func theJSONFormDecodesAndEncodesBackTheSame() throws {
        let json = #"[{"command":"transaction","payload":{"animation":"spring"}}]"#
        let batch = try JSONDecoder().decode([BatchCommand].self, from: Data(json.utf8))
        #expect(batch == [BatchCommand(.transaction(.object(["animation": .string("spring")])))])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(batch), as: UTF8.self) == json)
    }

    @Test func aPayloadThatIsNotAnObjectDoesNotDecode() {
        for json in [#"[{"command":"transaction","payload":[1]}]"#, #"[{"command":"transaction","payload":"x"}]"#,
                     #"[{"command":"transaction"}]"#, #"[{"command":"transaction","payload":{},"extra":1}]"#] {
            #expect(throws: DecodingError.self, "\(json)") {
                try JSONDecoder().decode([BatchCommand].self, from: Data(json.utf8))
            }
        }
    }
}
