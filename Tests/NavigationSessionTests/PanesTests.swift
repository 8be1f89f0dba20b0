import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Adaptive panes (Docs/panes.md): a scene's strategy shows the stack's top elements side by side by the width class
/// the renderer reports, and `VisibleModels` says which models are on screen.
struct PanesTests {
    /// The demo manifest with panes on the main scene.
    static func manifest(_ panes: String) throws -> Manifest {
        try Manifest(json: Manifest.demoJSON.replacingOccurrences(
            of: #""savedStates": ["main"],"#, with: #""savedStates": ["main"], "panes": \#(panes),"#))
    }

    func stack(_ session: Session, _ number: WindowNumber) throws -> [ModelID] {
        let window = try session.window(number)
        let stack = try #require(window.graph.activePath.compactMap { window.graph.model($0) }.last { $0.path != nil })
        return stack.path?.map(\.model) ?? []
    }

    @Test func listDetailShowsTheDetailAloneWhenCompactAndTheListBesideItWhenExpanded() throws {
        let session = try Session(manifest: try Self.manifest(#"{"strategy":"list-detail"}"#), store: nil)
        let number = try loggedInMain(session)
        try session.execute(window: number, command: .stackAppend(.screen("detail", params: ["id": "1"])))
        let window = try session.window(number)
        let path = try stack(session, number)
        #expect(session.visibleModels(of: window) == [path[1]])
        try session.reportWidthClass(window: number, "expanded", client: nil)
        #expect(session.visibleModels(of: window) == path)
        try session.reportWidthClass(window: number, "medium", client: nil)
        #expect(session.visibleModels(of: window) == [path[1]])
        // A sheet is on screen over the panes.
        try session.reportWidthClass(window: number, "expanded", client: nil)
        try session.apply(window: number, batchJSON: #"[{"command":"present","presentation":{"kind":"sheet","model":{"screen":"compose"}}}]"#)
        #expect(session.visibleModels(of: window) == path + [window.graph.activeModelID])
        #expect(throws: SessionError.self) { try session.reportWidthClass(window: number, "wide", client: nil) }
        // A presented stack's top screen stays on screen under an alert.
        let sheet = window.graph.activeModelID
        try session.apply(window: number, batchJSON: #"[{"command":"present","presentation":{"kind":"alert","title":"Sure?","actions":[{"id":"ok","title":"OK","role":"cancel"}]}}]"#)
        #expect(session.visibleModels(of: window) == path + [sheet, window.graph.activeModelID])
    }

    @Test func threeColumnsShowTwoWhenMediumAndThreeWhenExpanded() throws {
        let session = try Session(manifest: try Self.manifest(#"{"strategy":"three-column"}"#), store: nil)
        let number = try loggedInMain(session)
        try session.execute(window: number, command: .stackAppend(.screen("detail", params: ["id": "1"])))
        try session.execute(window: number, command: .stackAppend(.screen("editor", params: ["id": "1"])))
        let window = try session.window(number)
        let path = try stack(session, number)
        #expect(session.visibleModels(of: window) == [path[2]])
        try session.reportWidthClass(window: number, "medium", client: nil)
        #expect(session.visibleModels(of: window) == Array(path.suffix(2)))
        try session.reportWidthClass(window: number, "expanded", client: nil)
        #expect(session.visibleModels(of: window) == path)
    }

    @Test func withoutPanesTheTopOfTheStackIsOnScreenAtAnyWidth() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        try session.execute(window: number, command: .stackAppend(.screen("detail", params: ["id": "1"])))
        try session.reportWidthClass(window: number, "expanded", client: nil)
        let window = try session.window(number)
        #expect(session.visibleModels(of: window) == [window.graph.activeModelID])
    }

    @Test func aPanesDeclarationWithAnUnknownStrategyOrKeyIsRefused() throws {
        #expect(throws: ManifestError.self) { try Self.manifest(#"{"strategy":"grid"}"#) }
        #expect(throws: ManifestError.self) { try Self.manifest(#"{"strategy":"list-detail","columns":2}"#) }
    }
}
