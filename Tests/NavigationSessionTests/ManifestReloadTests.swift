import Foundation
import Logging
import NavigationCore
import Testing

@testable import NavigationSession

/// A manifest that changes while windows are open (`ReloadManifest`, `CheckManifest`) or between runs: windows
/// migrated as the new manifest declares, nothing changed by one that does not validate, and the journals replay.
struct ManifestReloadTests {
    static let before = MoveSessionTests.manifestJSON

    /// `detail` renamed `item`, `draft` removed, `legacy`… replaced by `list`.
    static let after = #"""
        {
          "format": 1, "id": "org.navsession.MoveTest", "title": "Move",
          "screens": [
            {"name": "list", "title": "List"}, {"name": "item", "title": "Item", "optional": ["id"]},
            {"name": "inbox", "title": "Inbox"}
          ],
          "renamed": {"detail": "item"},
          "scenes": [
            {"name": "browser", "title": "Browser", "default": true, "instances": "multiple",
             "root": {"kind": "tabs", "selectedTab": "a", "tabs": [
               {"id": "a", "title": "A", "model": {"kind": "stack", "path": [{"screen": "list"}]}},
               {"id": "b", "title": "B", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}}]}}
          ]
        }
        """#

    func session(_ json: String, directory: String? = nil) throws -> Session {
        let store = try directory.map { try SessionStore(directory: $0, logger: Logger(label: "test")) }
        return try Session(manifest: Manifest(json: json), store: store)
    }

    /// Three windows with a `detail` (one with a `draft` above it): after the reload each holds an `item` with the same
    /// id and params, the draft is gone, each window changed once with cause `reloaded`.
    func openThree(_ session: Session) throws -> [WindowNumber: ModelID] {
        var details: [WindowNumber: ModelID] = [:]
        for index in 0..<3 {
            let number = try #require(session.openWindow(scene: "browser").window)
            let push = index == 0
                ? #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"\#(index)"}},{"screen":"draft"}]}]"#
                : #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"\#(index)"}}]}]"#
            try session.apply(window: number, batchJSON: push)
            let graph = try session.window(number).graph
            details[number] = try #require(graph.snapshot().models.first { $0.screen == "detail" }?.id)
        }
        return details
    }

    @Test func aReloadRenamingDetailMigratesThreeLiveWindows() throws {
        let session = try session(Self.before)
        let details = try openThree(session)
        let versions = try details.keys.map { ($0, try session.window($0).version) }
        let outcome = try session.reloadManifest(Self.after)
        for (number, version) in versions {
            let graph = try session.window(number).graph
            let id = try #require(details[number])
            let item = try #require(graph.model(id))
            #expect(item.screen == "item" && item.params["id"] != nil)
            #expect(graph.version == version + 1)
            #expect(graph.snapshot().models.allSatisfy { $0.screen != "draft" && $0.screen != "detail" })
            let change = try #require(outcome.changes(of: number).last)
            #expect(change.cause == .reloaded)
        }
        #expect(session.manifest.screen("item") != nil)
        // The new manifest's rules hold from now on.
        #expect(throws: SessionError.self) {
            try session.apply(window: 1, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail"}]}]"#)
        }
    }

    /// After a reload the state is written under the new manifest: changes after it journal and replay under it.
    @Test func theJournalAfterAReloadReplays() throws {
        let directory = temporaryDirectory()
        var expected: [WindowNumber: [ModelState]] = [:]
        do {
            let session = try session(Self.before, directory: directory)
            _ = try openThree(session)
            try session.reloadManifest(Self.after)
            try session.apply(window: 2, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"item","params":{"id":"9"}}]}]"#)
            for window in session.windows { expected[window.number] = window.graph.snapshot().models }
        }
        let restored = try session(Self.after, directory: directory)
        for (number, models) in expected { #expect(try restored.window(number).graph.snapshot().models == models) }
    }

    /// A start with another manifest reads the state (and replays its journal) under the one it was written under,
    /// kept beside it, then migrates it.
    @Test func aStartWithAChangedManifestMigratesTheState() throws {
        let directory = temporaryDirectory()
        var details: [WindowNumber: ModelID] = [:]
        do {
            let session = try session(Self.before, directory: directory)
            details = try openThree(session)
        }
        #expect(files(in: directory).contains { $0.hasPrefix("manifest-") })
        do {
            let restored = try session(Self.after, directory: directory)
            #expect(restored.windows.count == 3)
            for (number, id) in details {
                #expect(try restored.window(number).graph.model(id)?.screen == "item")
            }
            #expect(restored.restoreSetAside == nil)
        }
        // And again: the migrated state is written under the new manifest.
        let again = try session(Self.after, directory: directory)
        #expect(again.windows.count == 3)
    }

    /// CheckManifest says window by window what would change, and changes nothing.
    @Test func checkManifestReportsAndChangesNothing() throws {
        let session = try session(Self.before)
        let details = try openThree(session)
        let before = session.windows.map { $0.graph.snapshot() }
        let report = try session.checkManifest(Self.after)
        #expect(session.windows.map { $0.graph.snapshot() } == before)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let windows = try #require(object["windows"] as? [[String: Any]])
        #expect(windows.count == 3)
        let first = try #require(windows.first)
        #expect(first["action"] as? String == "migrate")
        let renamed = try #require(first["renamed"] as? [[String: Any]])
        #expect(renamed.first?["from"] as? String == "detail" && renamed.first?["to"] as? String == "item")
        #expect((renamed.first?["model"] as? Int) == details[1]?.rawValue)
        let removed = try #require(first["removed"] as? [[String: Any]])
        #expect(removed.first?["screen"] as? String == "draft")
    }

    /// A manifest that does not validate, or names another application, changes nothing and says why.
    @Test func anInvalidManifestChangesNothing() throws {
        let session = try session(Self.before)
        _ = try openThree(session)
        let before = session.windows.map { $0.graph.snapshot() }
        for text in ["{", #"{"format":1,"id":"org.other.App","screens":[],"scenes":[{"name":"s","default":true,"root":{"screen":"x"}}],"freeFormScreens":true}"#,
                     Self.after.replacingOccurrences(of: #""renamed": {"detail": "item"}"#, with: #""renamed": {"detail": "nowhere"}"#)] {
            var caught: SessionError?
            do { try session.reloadManifest(text) } catch { caught = error }
            guard case .manifest? = caught else {
                Issue.record("expected a manifest error, got \(String(describing: caught))")
                continue
            }
        }
        #expect(session.windows.map { $0.graph.snapshot() } == before)
        #expect(session.manifest.screen("detail") != nil)
    }

    /// A removed scene closes its windows; a removed root starts the window again at its scene's root; a fallback
    /// replaces a removed screen.
    @Test func removedScenesRootsAndFallbacks() throws {
        let session = try session(Self.before)
        let number = try #require(session.openWindow(scene: "browser").window)
        try session.apply(window: number, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"draft"}]}]"#)
        let withFallback = Self.after.replacingOccurrences(
            of: #""renamed": {"detail": "item"},"#, with: #""renamed": {"detail": "item"}, "fallback": {"draft": "list"},"#)
        try session.reloadManifest(withFallback)
        let screens = try session.window(number).graph.snapshot().models.map(\.screen)
        #expect(screens.contains("list") && !screens.contains("draft"))
        let otherScene = withFallback.replacingOccurrences(of: #""name": "browser""#, with: #""name": "viewer""#)
        let outcome = try session.reloadManifest(otherScene)
        #expect(outcome.closedWindows == [number])
        #expect(session.windows.isEmpty)
    }

    /// With free-form screens every name is allowed, yet a renamed one is still renamed.
    @Test func aRenamedScreenIsRenamedUnderFreeFormScreensToo() throws {
        let session = try session(Self.before)
        _ = try openThree(session)
        let freeForm = Self.after.replacingOccurrences(of: #""title": "Move","#, with: #""title": "Move", "freeFormScreens": true,"#)
        try session.reloadManifest(freeForm)
        #expect(session.windows.allSatisfy { window in window.graph.snapshot().models.contains { $0.screen == "item" } })
    }

    /// A recently closed window and a saved session are listed with their migrated active screen and its title.
    @Test func closedAndSavedWindowsAreListedUnderTheirNewNames() throws {
        let session = try session(Self.before)
        let details = try openThree(session)
        let numbers = details.keys.sorted()
        try session.saveSession("s", windows: [numbers[2]])
        try session.dismissWindow(numbers[1])
        try session.reloadManifest(Self.after)
        #expect(session.closedWindows.first?.activeScreen == "item")
        #expect(session.closedWindows.first?.title == "Item")
        #expect(session.namedSessions.first?.windows.first?.activeScreen == "item")
    }
}
