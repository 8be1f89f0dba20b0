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
}
