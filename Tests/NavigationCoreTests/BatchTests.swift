import Testing

@testable import NavigationCore

struct BatchTests {
    @Test func aBatchIsOneChangeWithOneVersionBump() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.apply([
            BatchCommand(.stackAppend(detail)), BatchCommand(.present(.sheet(.screen("s"))), from: 1),
            BatchCommand(.openURL("https://x.org"), animated: false),
        ])
        #expect(window.version == 1 && event.version == 1)
        #expect(event.started == [3, 4] && event.effects.count == 1 && event.animated)
    }

    @Test func aBatchWhoseThirdCommandFailsLeavesTheWindowExactlyAsBefore() throws {
        let window = try makeWindow(.tabs([
            TabSpec(id: "a", title: "A", model: .stack([home, detail])), TabSpec(id: "b", title: "B", model: .screen("b")),
        ]))
        var messages: [DeliveredMessage] = []
        try window.onMessage(4) { messages.append($0) }
        var events: [ChangeEvent] = []
        window.changeHandler = { events.append($0) }
        let before = window.snapshot()
        let error = navigationError { () throws(NavigationError) in
            try window.apply([
                BatchCommand(.stackDropLast), BatchCommand(.openURL("https://x.org")),
                BatchCommand(.tabsSelectItem("missing")), BatchCommand(.stackAppend(detail)),
            ])
        }
        #expect(error == .batchCommandFailed(index: 2, .unknownTab(tabs: 1, tab: "missing", available: ["a", "b"])))
        #expect(window.snapshot() == before && window.version == 0)
        #expect(window.pendingEffects.isEmpty && messages.isEmpty && events.isEmpty && window.drainMessages().isEmpty)
        #expect(window.verifyPresenterIndex())
        try window.execute(.stackAppend(.screen("next")))
        #expect(window.model(window.activeModelID)?.id == 6, "ids of the rolled-back batch are not burnt")
    }

    @Test func anEmptyBatchFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .emptyBatch) { () throws(NavigationError) in try window.apply([]) }
    }

    @Test func batchEntriesWithoutFromRunFromTheActiveModelAtThatPoint() throws {
        let window = try makeWindow(.stacked(home))
        try window.apply([BatchCommand(.present(.sheet(.stacked(.screen("s"))))), BatchCommand(.stackAppend(detail))])
        #expect(screens(of: 3, in: window) == ["s", "detail"])
    }

    @Test func aSequenceCommandRunsEveryStepFromTheSameModel() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.sequence([.stackAppend(.screen("a")), .stackAppend(.screen("b")), .stackDropLast]), from: 2)
        #expect(screens(of: 1, in: window) == ["home", "a"])
        #expect(window.version == 1)
    }

    @Test func aClosureCompositeAppliesAtomically() throws {
        let window = try makeWindow(.stacked(home))
        let presentThenPush = Composite { _, _ in [.stackAppend(detail), .stackDropLast, .stackDropLast] }
        expectRejected(window, .batchCommandFailed(index: 2, .alreadyAtStackRoot(stack: 1))) { () throws(NavigationError) in
            try window.execute(presentThenPush)
        }
    }
}
