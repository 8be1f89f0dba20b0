import Foundation
import Testing

@testable import NavigationCore
@testable import NavigationSession

/// Renderer state is journaled with the graph and survives a kill; SetRendererState's text is checked strictly.
struct RendererStatePersistenceTests {
    @Test func aWindowsAndAModelsRendererStateSurviveAKill() throws {
        let directory = temporaryDirectory()
        var before: WindowSnapshot?
        do {
            let session = try demoSession(directory: directory)
            let main = try loggedInMain(session)
            try session.execute(window: main, command: .stackAppend(.screen("editor", params: ["id": "1"])))
            let editor = try session.window(main).graph.activeModelID
            try session.execute(window: main, command: .setRendererState(model: .id(editor), RendererState(["draft": .string("Dear Ann,")])))
            try session.execute(window: main, command: .setRendererState(model: nil, RendererState(["width": .number(900)])))
            before = try session.window(main).graph.snapshot()
            // Dropped without close(): like SIGKILL, only the journal survives.
        }
        let restored = try demoSession(directory: directory)
        let snapshot = try restored.window(#require(restored.windows.first?.number)).graph.snapshot()
        #expect(snapshot == before)
        #expect(snapshot.rendererState == RendererState(["width": .number(900)]))
        #expect(snapshot.models.contains { $0.rendererState == RendererState(["draft": .string("Dear Ann,")]) })
    }

    @Test func aKeyGivenTwiceIsInvalidCommand() throws {
        let session = try demoSession(directory: temporaryDirectory())
        #expect(throws: SessionError.self) { try session.rendererState(json: #"{"a":1,"a":2}"#) }
        do {
            _ = try session.rendererState(json: #"{"a":1,"a":2}"#)
        } catch {
            guard case .invalidCommand(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("\"a\""), "\(message)")
        }
    }

    @Test func aTextThatIsNotAnObjectIsInvalidCommand() throws {
        let session = try demoSession(directory: temporaryDirectory())
        for text in ["[1]", "3", "", "{"] {
            do {
                _ = try session.rendererState(json: text)
                Issue.record("\(text) accepted")
            } catch {
                guard case .invalidCommand = error else { Issue.record("\(text): \(error)"); continue }
            }
        }
    }

    @Test func aVeryLongTextIsRefusedBeforeItIsParsed() throws {
        let session = try demoSession(directory: temporaryDirectory())
        let text = #"{"draft":""# + String(repeating: "x", count: 5 * RendererState.maxBytes) + #""}"#
        do {
            _ = try session.rendererState(json: text)
            Issue.record("accepted")
        } catch {
            guard case .limitsExceeded = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func spacesInTheTextAreNotCountedInTheBound() throws {
        let session = try demoSession(directory: temporaryDirectory())
        let state = try session.rendererState(json: "{\n  \"scroll\" : 12 ,\n  \"draft\" : \"x\"\n}")
        #expect(state.json == #"{"draft":"x","scroll":12}"#)
    }
}
