import Foundation
import NavigationCore
import Synchronization
import Testing

@testable import NavigationSession

/// The session runs due scheduled batches (on a clock the test sets, no sleeping), journals their
/// runs and drops, keeps them across a kill, applies the overdue rule after a restart, and runs manifest handlers.
struct ScheduledSessionTests {
    /// A wall clock the test moves by hand.
    final class Wall: Sendable {
        let now = Mutex<Int64>(1_000_000)
        var clock: SessionClock { SessionClock(nanoseconds: { 0 }, wallMilliseconds: { self.read() }) }
        func read() -> Int64 { now.withLock { $0 } }
        func set(_ value: Int64) { now.withLock { $0 = value } }
    }

    /// Logged in, a detail pushed on the home tab (its model is the active one).
    func detailShown(_ session: Session) throws -> WindowNumber {
        let main = try loggedInMain(session)
        try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "1"])))
        return main
    }

    static let popLater = #"[{"command":"schedule","afterMs":2000,"id":"pop","commands":[{"command":"stackDropLast"}]}]"#

    @Test func aDueBatchRunsAsOneChangeWithAScheduledCause() throws {
        let wall = Wall()
        let session = try demoSession(clock: wall.clock)
        let main = try detailShown(session)
        try session.apply(window: main, batchJSON: Self.popLater)
        #expect(session.nextScheduledDeadline == 1_002_000)
        #expect(session.runDueScheduled().events.isEmpty)
        wall.set(1_002_000)
        let outcome = session.runDueScheduled()
        guard case .changed(main, let event, _, let cause)? = outcome.events.first else {
            Issue.record("no change: \(outcome.events)")
            return
        }
        #expect(event.cause == .scheduled(id: "pop", [BatchCommand(.stackDropLast)]))
        #expect(cause == #"{"commands":[{"command":"stackDropLast","count":1}],"scheduled":"pop"}"#)
        #expect(try session.window(main).activeScreen == "home")
        #expect(session.nextScheduledDeadline == nil)
    }

    @Test func aBatchThatFailsWhenDueIsDroppedAndChangesNothing() throws {
        let wall = Wall()
        let session = try demoSession(clock: wall.clock)
        let main = try detailShown(session)
        try session.apply(window: main, batchJSON: #"[{"command":"schedule","afterMs":10,"commands":[{"command":"tabsSelectItem","tab":"nope"}]}]"#)
        let version = try session.window(main).version
        wall.set(1_000_010)
        let events = session.runDueScheduled().events
        guard case .changeFailed(main, "scheduledFailed", "s1", let error)? = events.first, events.count == 1 else {
            Issue.record("expected one scheduledFailed: \(events)")
            return
        }
        #expect(errorCase(error) == "unknownTab")
        #expect(try session.window(main).version == version)
        #expect(try session.window(main).graph.scheduled.isEmpty)
        #expect(session.nextScheduledDeadline == nil)
    }

    @Test func aScheduledBatchSurvivesAKillAndRunsAtItsDeadline() throws {
        let directory = temporaryDirectory()
        let wall = Wall()
        let main: WindowNumber
        do {
            let session = try demoSession(directory: directory, clock: wall.clock)
            main = try detailShown(session)
            try session.apply(window: main, batchJSON: Self.popLater)
            // Dropped without close(): like SIGKILL, only what was written survives.
        }
        wall.set(1_001_000)
        let restored = try demoSession(directory: directory, clock: wall.clock)
        #expect(restored.nextScheduledDeadline == 1_002_000)
        #expect(restored.runDueScheduled().events.isEmpty)
        wall.set(1_002_000)
        #expect(!restored.runDueScheduled().events.isEmpty)
        #expect(try restored.window(main).activeScreen == "home")
    }

    @Test func aRunIsJournaledSoARestartDoesNotRunItAgain() throws {
        let directory = temporaryDirectory()
        let wall = Wall()
        let main: WindowNumber
        let version: Int
        do {
            let session = try demoSession(directory: directory, clock: wall.clock)
            main = try detailShown(session)
            try session.apply(window: main, batchJSON: Self.popLater)
            wall.set(1_002_000)
            session.runDueScheduled()
            version = try session.window(main).version
        }
        let restored = try demoSession(directory: directory, clock: wall.clock)
        #expect(try restored.window(main).version == version)
        #expect(try restored.window(main).graph.scheduled.isEmpty)
    }

    /// A batch whose author left keeps waiting without an author, and so comes back when its window is reopened;
    /// a restart (which replays the close and the reopen) must find the same batch there.
    @Test func aBatchWhoseAuthorLeftComesBackWithItsReopenedWindowAcrossARestart() throws {
        let directory = temporaryDirectory()
        let wall = Wall()
        let reopened: WindowNumber
        do {
            let session = try demoSession(directory: directory, clock: wall.clock)
            let main = try detailShown(session)
            try session.apply(window: main, batchJSON: Self.popLater, client: ":1.7")
            try session.clientVanished(uniqueName: ":1.7")
            #expect(try session.window(main).graph.scheduled.map(\.author) == [nil])
            try session.dismissWindow(main)
            reopened = try #require(try session.reopenWindow().window)
            #expect(try session.window(reopened).graph.scheduled.map(\.id) == ["pop"])
        }
        let restored = try demoSession(directory: directory, clock: wall.clock)
        #expect(try restored.window(reopened).graph.scheduled.map(\.id) == ["pop"])
        #expect(try restored.window(reopened).graph.scheduled.map(\.author) == [nil])
    }

    @Test func anOverdueBatchWithDropIsDroppedAtRestore() throws {
        let directory = temporaryDirectory()
        let wall = Wall()
        let main: WindowNumber
        do {
            let session = try demoSession(directory: directory, clock: wall.clock)
            main = try detailShown(session)
            try session.apply(
                window: main,
                batchJSON: #"[{"command":"schedule","afterMs":2000,"overdue":"drop","commands":[{"command":"stackDropLast"}]}]"#)
        }
        wall.set(1_005_000)
        let restored = try demoSession(directory: directory, clock: wall.clock)
        #expect(try restored.window(main).graph.scheduled.isEmpty)
        #expect(restored.runDueScheduled().events.isEmpty)
        #expect(try restored.window(main).activeScreen == "detail")
    }

    @Test func anOverdueBatchWithRunRunsAfterTheRestart() throws {
        let directory = temporaryDirectory()
        let wall = Wall()
        let main: WindowNumber
        do {
            let session = try demoSession(directory: directory, clock: wall.clock)
            main = try detailShown(session)
            try session.apply(window: main, batchJSON: Self.popLater)
        }
        wall.set(1_005_000)
        let restored = try demoSession(directory: directory, clock: wall.clock)
        #expect(restored.nextScheduledDeadline == 1_002_000)
        restored.runDueScheduled()
        #expect(try restored.window(main).activeScreen == "home")
    }

    @Test func aBatchShowingAnUndeclaredScreenIsRefusedWhenScheduled() throws {
        let session = try demoSession()
        let main = try detailShown(session)
        let version = try session.window(main).version
        let error = #expect(throws: SessionError.self) {
            try session.apply(
                window: main,
                batchJSON: #"[{"command":"schedule","afterMs":10,"commands":[{"command":"stackAppend","models":[{"screen":"detial"}]}]}]"#)
        }
        #expect(errorCase(error) == "unknownScreen")
        #expect(try session.window(main).version == version)
        #expect(session.nextScheduledDeadline == nil)
    }

    @Test func theDemoHandlerOnMainPresentsTheToastFromADetail() throws {
        let session = try demoSession()
        let main = try detailShown(session)
        let outcome = try session.apply(window: main, batchJSON: #"[{"command":"sendMessage","name":"saved","payload":"1"}]"#)
        let graph = try session.window(main).graph
        let toast = try #require(graph.model(forTag: "toast"))
        #expect(graph.screen(of: toast) == "toast")
        #expect(outcome.events.contains { if case .message(main, let message) = $0 { message.message.name == "saved" } else { false } })
    }

    @Test func windowSchedulePrefersTheIdTheWindowWouldAssign() throws {
        let commands = try Session.scheduledCommands(fromJSON: #"[{"command":"dismiss"}]"#)
        #expect(commands == [BatchCommand(.dismiss)])
        #expect(throws: SessionError.self) { try Session.scheduledCommands(fromJSON: "[]") }
        #expect(throws: SessionError.self) {
            try Session.scheduledCommands(fromJSON: #"[{"command":"schedule","afterMs":1,"commands":[{"command":"dismiss"}]}]"#)
        }
    }

    @Test func aManifestHandlerThatSchedulesIsRefused() throws {
        var document = try JSONSerialization.jsonObject(with: Data(Manifest.demoJSON.utf8)) as? [String: Any] ?? [:]
        var screens = document["screens"] as? [[String: Any]] ?? []
        screens.append(["name": "x", "handlers": ["m": [["command": "schedule", "afterMs": 1, "commands": [["command": "dismiss"]]]]]])
        document["screens"] = screens
        let json = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        #expect(throws: ManifestError.self) { try Manifest(json: json) }
    }

    @Test(arguments: ["protect", "unprotect"])
    func aManifestHandlerThatProtectsOrUnprotectsIsRefused(_ name: String) throws {
        let command: [String: Any] = name == "protect" ? ["command": name, "reason": "draft"] : ["command": name]
        var document = try JSONSerialization.jsonObject(with: Data(Manifest.demoJSON.utf8)) as? [String: Any] ?? [:]
        var screens = document["screens"] as? [[String: Any]] ?? []
        screens.append(["name": "x", "handlers": ["m": [command]]])
        document["screens"] = screens
        let json = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        #expect {
            try Manifest(json: json)
        } throws: { error in
            "\(error)".contains("a mark belongs to the client that set it")
        }
    }

    @Test func aManifestHandlerWithAnUnknownKeyIsRefused() throws {
        let json = Manifest.demoJSON.replacingOccurrences(of: #""handlers": {"saved": [{"command": "present","#, with: #""handlers": {"saved": [{"command": "present", "bogus": 1,"#)
        #expect(json != Manifest.demoJSON)
        #expect(throws: ManifestError.self) { try Manifest(json: json) }
    }
}
