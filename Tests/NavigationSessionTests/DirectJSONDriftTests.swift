import NavigationCore
import Testing

@testable import NavigationSession

/// The direct JSON writers (``WindowSnapshot/json()``, `StoredSession.json()`, `JournalLine.encodeDirect`) list
/// each type's fields by hand, next to its `Codable` conformance. A field added to the type and not to its
/// writer would be missing from every snapshot file and `GetState` reply — silently, since the writer still
/// succeeds. These tests list the fields each writer writes: a new stored property fails them, naming the
/// writer to extend (the byte-for-byte comparisons with `JSONEncoder` are in `DirectJSONTests` and
/// `JournalLineTests`).
struct DirectJSONDriftTests {
    /// The stored properties of `value`, by name.
    static func fields(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    /// A window's snapshot (the demo's main window).
    static func snapshot() throws -> WindowSnapshot {
        let session = try Session(manifest: try Manifest.demo(), store: nil)
        let number = try #require(try session.openWindow(scene: "main").window)
        return try session.window(number).graph.snapshot()
    }

    @Test func windowSnapshotHasTheFieldsItsWriterWrites() throws {
        // WindowSnapshot+DirectJSON.swift, appendJSON(to:) (`scheduled`, `nextScheduleNumber`: scheduled batches;
        // `forward`: the forward list)
        #expect(Self.fields(of: try Self.snapshot()) == [
            "version", "nextModelID", "isClosed", "root", "models", "scheduled", "nextScheduleNumber", "forward",
            "rendererState",  // a renderer's own state
            "prepared",  // models prepared ahead (Window1 Prepare)
        ])
    }

    @Test func modelStateHasTheFieldsItsWriterWrites() throws {
        // WindowSnapshot+DirectJSON.swift, ModelState.appendDirectJSON(to:) (`saved`: only switched containers
        // have kept branches, and the writer leaves those to the Codable path; `tabState`: tab containers only,
        // which it leaves to JSONOutput; `protection`: marked models, which it leaves to the Codable path;
        // `transition`: presented models only; `splitState`: split containers — it leaves both to the Codable path)
        let model = try #require(try Self.snapshot().models.first)
        #expect(Self.fields(of: model) == [
            "id", "parent", "attachment", "screen", "params", "title", "presented", "content", "saved", "tag", "tabState",
            "protection", "appearance", "appearanceOverride", "hidesTabBarAnimated", "transition", "splitState",
            "rendererState",  // a renderer's own state
            "resultTo",  // a presented model's opener
            "paramsHistory",  // pushParams; a model with one is left to the Codable path
        ])
    }

    @Test func storedSessionHasTheFieldsItsWriterWrites() {
        // StoredSession.swift, json()
        let session = StoredSession(
            format: StoredSession.formatName, formatVersion: StoredSession.formatVersion, applicationID: "a",
            generation: 0, sessionVersion: 0, nextWindow: 1, windows: [])
        #expect(Self.fields(of: session) == [
            "format", "formatVersion", "applicationID", "generation", "sessionVersion", "nextWindow", "windows", "closed",
            "sessions",  // the named sessions
            "manifest",  // the manifest the state is under
            "stats",  // what GetStats counted
        ])
    }

    @Test func storedWindowHasTheFieldsItsWriterWrites() throws {
        // StoredSession.swift, StoredWindow.appendJSON(to:)
        let window = StoredWindow(
            number: 1, scene: "s", lastActivity: 0, closeOnExitOwner: nil, pendingDeepLink: nil, snapshot: try Self.snapshot())
        #expect(Self.fields(of: window) == [
            "number", "scene", "lastActivity", "closeOnExitOwner", "pendingDeepLink", "pendingCommands", "snapshot",
            "history",  // the window's recent changes
            "group",  // its window group
            "policy",  // who may change it
        ])
    }

    @Test func storedHistoryHasTheFieldsItsWriterWrites() throws {
        // StoredSession.swift, StoredHistory.appendJSON(to:) (its entries go through JSONEncoder)
        let history = StoredHistory(base: try Self.snapshot(), entries: [], dropped: nil)
        #expect(Set(Self.fields(of: history)) == ["base", "entries", "dropped"])
    }

    @Test func batchCommandHasTheFieldsItsWriterWrites() {
        // JournalEntry.swift, JournalLine.encodeDirect(_:)
        #expect(Self.fields(of: BatchCommand(.hide)) == ["command", "from", "animated"])
    }
}
