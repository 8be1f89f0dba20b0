import Foundation
import Testing

@testable import NavigationCore

/// A renderer's own state per window and per model.
struct RendererStateTests {
    private static let scroll = RendererState(["scroll": .number(420)])

    private func window(limits: GraphLimits = GraphLimits()) throws -> NavigationWindow {
        try NavigationWindow(root: .stack([home, detail]), configuration: WindowConfiguration(limits: limits))
    }

    @Test func setRendererStateStoresAModelsObjectWithOneRendererStateStep() throws {
        let window = try window()
        let event = try window.execute(.setRendererState(model: 3, Self.scroll))
        #expect(window.model(3)?.rendererState == Self.scroll)
        #expect(NavigationStep.json(event.steps) == #"[{"kind":"rendererState","model":3,"state":{"scroll":420}}]"#)
        #expect(event.version == 1 && event.started.isEmpty && event.finished.isEmpty && event.modified == [3])
    }

    @Test func theWindowsOwnStateIsModelZeroInJSONAndTopLevelInTheSnapshot() throws {
        let window = try window()
        let batch = try CommandJSONTests.decodeBatch(#"[{"command":"setRendererState","model":0,"state":{"width":800}}]"#)
        #expect(batch[0].command == .setRendererState(model: nil, RendererState(["width": .number(800)])))
        let event = try window.apply(batch)
        #expect(NavigationStep.json(event.steps) == #"[{"kind":"rendererState","model":0,"state":{"width":800}}]"#)
        let json = String(decoding: try window.snapshot().json(), as: UTF8.self)
        #expect(json.contains(#""nextModelID":4,"rendererState":{"width":800},"root":1"#), "\(json)")
    }

    @Test func theCommandEncodesTheWindowAsModelZero() throws {
        let command = NavigationCommand.setRendererState(model: nil, RendererState(["a": .bool(true)]))
        #expect(try jsonText(command) == #"{"command":"setRendererState","model":0,"state":{"a":true}}"#)
        #expect(try JSONDecoder().decode(NavigationCommand.self, from: Data(try jsonText(command).utf8)) == command)
    }

    @Test func aNewObjectReplacesTheWholeStoredObject() throws {
        let window = try window()
        try window.execute(.setRendererState(model: 3, RendererState(["scroll": .number(1), "draft": .string("x")])))
        try window.execute(.setRendererState(model: 3, Self.scroll))
        #expect(window.model(3)?.rendererState == Self.scroll)
    }

    @Test func anEmptyObjectClearsTheState() throws {
        let window = try window()
        try window.execute(.setRendererState(model: 3, Self.scroll))
        try window.execute(.setRendererState(model: nil, Self.scroll))
        try window.execute(.setRendererState(model: 3, .empty))
        let event = try window.execute(.setRendererState(model: nil, .empty))
        #expect(window.model(3)?.rendererState == nil && window.rendererState == nil)
        #expect(NavigationStep.json(event.steps) == #"[{"kind":"rendererState","model":0,"state":{}}]"#)
    }

    @Test func theSameStateChangesNothing() throws {
        let window = try window()
        try window.execute(.setRendererState(model: 3, Self.scroll))
        let event = try window.execute(.setRendererState(model: 3, RendererState(["scroll": .number(420)])))
        #expect(event.version == 1 && window.version == 1 && event.steps.isEmpty)
    }

    @Test func aStateOverTheBoundIsLimitsExceededAndChangesNothing() throws {
        let window = try window()
        let big = RendererState(["draft": .string(String(repeating: "x", count: RendererState.maxBytes))])
        #expect(throws: NavigationError.self) { try window.execute(.setRendererState(model: 3, big)) }
        do {
            try window.execute(.setRendererState(model: nil, big))
            Issue.record("no error")
        } catch {
            guard case .limitsExceeded = error else { Issue.record("\(error)"); return }
        }
        #expect(window.version == 0 && window.model(3)?.rendererState == nil && window.rendererState == nil)
    }

    @Test func theStateCountsInTheWindowsContentCost() throws {
        let window = try window()
        let before = window.contentCost
        try window.execute(.setRendererState(model: 3, Self.scroll))
        try window.execute(.setRendererState(model: nil, Self.scroll))
        #expect(window.contentCost == before + 2 * (Self.scroll.json.utf8.count + 24))
        try window.execute(.setRendererState(model: nil, .empty))
        #expect(window.contentCost == before + Self.scroll.json.utf8.count + 24)
    }

    @Test func aStateOverTheWindowsContentLimitIsLimitsExceeded() throws {
        let probe = try window()
        var limits = GraphLimits()
        limits.maxContentCost = probe.contentCost + 40
        let window = try window(limits: limits)
        let state = RendererState(["draft": .string(String(repeating: "y", count: 64))])
        do {
            try window.execute(.setRendererState(model: 3, state))
            Issue.record("no error")
        } catch {
            guard case .limitsExceeded = error else { Issue.record("\(error)"); return }
        }
        #expect(window.model(3)?.rendererState == nil && window.contentCost == probe.contentCost)
    }

    @Test func aModelsStateGoesWithTheModel() throws {
        let window = try window(), plain = try self.window()
        try window.execute(.setRendererState(model: 3, Self.scroll))
        try window.execute(.stackDropLast(1))
        try plain.execute(.stackDropLast(1))
        #expect(window.model(3) == nil && window.contentCost == plain.contentCost)
        // No model keeps it; the forward list does, to give it back with the screen (`goForward`).
        #expect(window.snapshot().models.allSatisfy { $0.rendererState == nil })
        #expect(window.forward.first?.rendererState == Self.scroll)
    }

    @Test func aFailedBatchLeavesTheStateAsItWas() throws {
        let window = try window()
        try window.execute(.setRendererState(model: 3, Self.scroll))
        let cost = window.contentCost
        #expect(throws: NavigationError.self) {
            try window.apply([
                BatchCommand(.setRendererState(model: 3, .empty)), BatchCommand(.setRendererState(model: nil, Self.scroll)),
                BatchCommand(.tabsSelectItem("nope")),
            ])
        }
        #expect(window.model(3)?.rendererState == Self.scroll && window.rendererState == nil && window.contentCost == cost)
    }

    @Test func anUnknownModelIsUnknownModel() throws {
        let window = try window()
        #expect(throws: NavigationError.unknownModel(99)) { try window.execute(.setRendererState(model: 99, Self.scroll)) }
    }

    @Test func snapshotsKeepEveryRendererStateThroughBothWritersAndARestore() throws {
        let window = try window()
        let nested = RendererState(["size": .array([.number(800), .number(600)]), "open": .object(["a": .null])])
        try window.execute(.setRendererState(model: 3, nested))
        try window.execute(.setRendererState(model: 2, Self.scroll))
        try window.execute(.setRendererState(model: nil, Self.scroll))
        let snapshot = window.snapshot()
        let direct = try snapshot.json()
        #expect(direct == Array(try JSONOutput.encode(snapshot)))
        let decoded = try JSONDecoder().decode(WindowSnapshot.self, from: Data(direct))
        #expect(decoded == snapshot)
        let restored = try NavigationWindow(snapshot: decoded)
        #expect(restored.snapshot() == snapshot && restored.contentCost == window.contentCost)
    }

    @Test func aStateThatIsNotAnObjectDoesNotDecode() throws {
        #expect(throws: DecodingError.self) {
            try CommandJSONTests.decodeBatch(#"[{"command":"setRendererState","model":0,"state":[1]}]"#)
        }
        #expect(throws: DecodingError.self) {
            try CommandJSONTests.decodeBatch(#"[{"command":"setRendererState","model":0,"state":{},"stat":{}}]"#)
        }
        #expect(throws: DecodingError.self) { try CommandJSONTests.decodeBatch(#"[{"command":"setRendererState","state":{}}]"#) }
    }
}
