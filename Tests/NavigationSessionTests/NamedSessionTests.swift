import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Named sessions in the session: saved whole, opened all or none, kept by the journal and the snapshot file.
struct NamedSessionTests {
    @Test(arguments: [false, true])
    func aSavedSessionComesBackFromTheJournalAndFromTheSnapshotFile(_ compact: Bool) throws {
        let directory = temporaryDirectory()
        let routes: WindowSnapshot
        do {
            let session = try demoSession(directory: directory)
            let number = try #require(session.openWindow(scene: "waiting").window)
            try session.saveSession("work", windows: [number])
            try session.saveSession("gone", windows: [])
            try session.deleteSession("gone")
            routes = try session.window(number).graph.snapshot()
            if compact { try session.checkpoint() }
        }
        let restored = try demoSession(directory: directory)
        #expect(restored.namedSessions.map(\.name) == ["work"])
        #expect(restored.namedSessions.first?.windows.first?.snapshot == routes)
        let opened = try restored.openSession("work")
        let number = try #require(opened.window)
        #expect(try restored.window(number).graph.snapshot().models == routes.models)
    }

    @Test func aSessionNameOutsideTheRuleAndAnUnknownNameAreRefused() throws {
        let session = try demoSession()
        _ = try session.openWindow(scene: "waiting")
        for name in ["", "a/b", String(repeating: "x", count: 65), "tab\there"] {
            #expect(throws: SessionError.self) { try session.saveSession(name, windows: []) }
        }
        #expect(throws: SessionError.unknownSession("nope")) { try session.openSession("nope") }
        #expect(throws: SessionError.unknownSession("nope")) { try session.deleteSession("nope") }
    }

    @Test func moreThanTheBoundIsLimitsExceeded() throws {
        var limits = SessionLimits()
        limits.maxNamedSessions = 2
        let session = try demoSession(limits: limits)
        _ = try session.openWindow(scene: "waiting")
        try session.saveSession("a", windows: [])
        try session.saveSession("b", windows: [])
        try session.saveSession("a", windows: [])  // replaces
        #expect(throws: SessionError.self) { try session.saveSession("c", windows: []) }
    }

    @Test func oneClientMayHoldOnlyItsShareOfTheNamedSessions() throws {
        var limits = SessionLimits()
        limits.maxClientNamedSessions = 2
        let session = try demoSession(limits: limits)
        _ = try session.openWindow(scene: "waiting")
        try session.saveSession("a", windows: [], client: ":1.5")
        try session.saveSession("b", windows: [], client: ":1.5")
        try session.saveSession("a", windows: [], client: ":1.5")  // its own, replaced
        #expect(throws: SessionError.self) { try session.saveSession("c", windows: [], client: ":1.5") }
        try session.saveSession("c", windows: [], client: ":1.6")  // another client's share
        #expect(session.namedSessions.map(\.name) == ["a", "b", "c"])
    }

    /// An undo or redo keeps the whole state it restored in the window's history: the history counts its size (a
    /// redo bringing back a 3 000-byte sheet counts more than 3 000 bytes), so its byte bounds hold however large
    /// the window.
    @Test func aRedoCountsTheStateItRestoredInTheHistorysBytes() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "waiting").window)
        let detail = #"{"command":"present","presentation":{"kind":"sheet","model":{"screen":"detail","params":{"id":""#
            + String(repeating: "x", count: 3000) + #""}}}}"#
        try session.apply(window: number, batchJSON: "[" + detail + "]")
        try session.undo(window: number)
        try session.redo(window: number)
        let entry = try #require(try session.window(number).history.entries.last)
        guard case .redo = entry.cause else {
            Issue.record("not the redo: \(entry.cause)")
            return
        }
        #expect(entry.bytes > 3000, "\(entry.bytes)")
    }

    /// A mark is its owner's while it is connected, not part of the navigation: a window saved or closed with a mark
    /// comes back unmarked (as an undo's returning models do), so a mark of a client that left never reappears.
    @Test func aSavedOrClosedWindowComesBackUnmarked() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "waiting").window)
        let model = try session.window(number).graph.activeModelID
        try session.apply(
            window: number, batchJSON: #"[{"command":"protect","model":\#(model.rawValue),"reason":"draft","owner":":1.7"}]"#,
            client: ":1.7")
        try session.saveSession("s", windows: [number])
        let opened = try #require(try session.openSession("s").window)
        #expect(try session.window(opened).graph.protectedCount == 0)
        // Closed with its mark (a close no mark refuses: the window's tied client left).
        var events: [SessionEvent] = []
        try session.dismissWindow(number, guarded: false, events: &events)
        let reopened = try #require(try session.reopenWindow(String(number)).window)
        #expect(try session.window(reopened).graph.protectedCount == 0)
    }

    /// A batch a client scheduled acts with that client's authority, which a saved or closed window does not keep
    /// (its author may be gone when it opens again): such batches are dropped, a batch no client authored stays —
    /// the same after a restart replays the close and the reopen.
    @Test func aSavedOrClosedWindowComesBackWithoutItsClientsScheduledBatches() throws {
        let directory = temporaryDirectory()
        let schedule = #"[{"command":"schedule","afterMs":600000,"id":"ID","commands":[{"command":"dismiss"}]}]"#
        var reopened: WindowNumber = 0
        do {
            let session = try demoSession(directory: directory)
            let number = try #require(session.openWindow(scene: "waiting").window)
            try session.apply(window: number, batchJSON: schedule.replacingOccurrences(of: "ID", with: "mine"), client: ":1.7")
            try session.apply(window: number, batchJSON: schedule.replacingOccurrences(of: "ID", with: "own"))
            try session.saveSession("s", windows: [number])
            #expect(session.namedSessions.first?.windows.first?.snapshot.scheduled.map(\.id) == ["own"])
            let opened = try #require(try session.openSession("s").window)
            #expect(try session.window(opened).graph.scheduled.map(\.id) == ["own"])
            var events: [SessionEvent] = []
            try session.dismissWindow(number, guarded: false, events: &events)
            reopened = try #require(try session.reopenWindow(String(number)).window)
            #expect(try session.window(reopened).graph.scheduled.map(\.id) == ["own"])
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(reopened).graph.scheduled.map(\.id) == ["own"])
        #expect(restored.windows.allSatisfy { $0.graph.scheduled.allSatisfy { $0.author == nil } })
    }

    /// A save, a delete or a reopen whose journal line compacts the files: the snapshot then written holds what the
    /// call did (it is made before the line is written), so nothing acknowledged is lost at the next start.
    @Test func whatASaveADeleteOrAReopenDidSurvivesTheCompactionItsLineCauses() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory, compactionInterval: 1)
            let number = try #require(session.openWindow(scene: "waiting").window)
            try session.saveSession("kept", windows: [number])
            try session.saveSession("gone", windows: [number])
            try session.deleteSession("gone")
            try session.dismissWindow(number)
            _ = try session.reopenWindow()
        }
        let restored = try demoSession(directory: directory, compactionInterval: 1)
        #expect(restored.namedSessions.map(\.name) == ["kept"])
        #expect(restored.windows.count == 1)
        #expect(restored.closedWindows.isEmpty, "the reopened window is not also listed as closed")
    }
}
