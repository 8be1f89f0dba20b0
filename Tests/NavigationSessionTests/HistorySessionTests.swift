import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// A window's history, its state at a version and its trace, through the session.
struct HistorySessionTests {
    static let detail = #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"}}]}]"#

    /// Logs in and pushes `count` details: versions 1 (log-in) to 1 + count.
    static func changed(_ session: Session, pushes count: Int) throws -> WindowNumber {
        let number = try loggedInMain(session)
        for _ in 0..<count { try session.apply(window: number, batchJSON: detail) }
        return number
    }

    @Test func theHistoryListsEachChangeWithItsVersionCauseAndActiveScreenOldestFirst() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 1)
        try session.execute(window: number, command: .goBack)
        let history = try session.history(window: number)
        #expect(history.map(\.version) == [1, 2, 3])
        #expect(history.map(\.activeScreen) == ["home", "detail", "home"])
        #expect(history.allSatisfy { $0.time != nil })
        #expect(history[2].cause == .commands([BatchCommand(.goBack)]))
        let json = try session.historyJSON(window: number)
        #expect(json.hasPrefix(#"[{"version":1,"time":"#), "\(json)")
        #expect(json.contains(#""cause":{"commands":[{"command":"goBack"}]},"activeScreen":"home"}]"#), "\(json)")
    }

    /// A renderer's state writes (a scroll position saved 300 times) are not navigation entries: they neither show
    /// in the history nor push the navigations out of it, and the kept list stays bounded.
    @Test func rendererStateWritesAreNotNavigationEntries() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 2)
        let detail = try session.window(number).graph.activeModelID.rawValue
        for scroll in 0..<300 {
            try session.apply(
                window: number,
                batchJSON: #"[{"command":"setRendererState","model":\#(detail),"state":{"scroll":\#(scroll)}}]"#)
        }
        let history = try session.history(window: number)
        #expect(history.map(\.version) == [1, 2, 3])
        let window = try session.window(number)
        #expect(window.history.entries.count <= Session.historyEntriesPerNavigation * 2 * SessionLimits().historyLength)
        #expect(try session.state(window: number, at: window.version) == window.graph.snapshot())
        #expect(try session.state(window: number, at: window.version - 1).version == window.version - 1)
    }

    /// With navigations, the checkpoint folds the history without a replay, whatever renderer writes ride along.
    @Test func navigationsBetweenRendererWritesFoldAtTwiceTheLength() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 0)
        let length = SessionLimits().historyLength
        for step in 0..<(3 * length) {
            try session.apply(window: number, batchJSON: step % 2 == 0 ? Self.detail : #"[{"command":"goBack"}]"#)
            try session.apply(window: number, batchJSON: #"[{"command":"setRendererState","model":0,"state":{"w":\#(step)}}]"#)
        }
        let history = try session.history(window: number)
        #expect(history.count == length)
        #expect(try session.window(number).history.navigations <= 2 * length)
        #expect(try session.state(window: number, at: history[0].version).version == history[0].version)
    }

    /// A deep window folds its history in spans of a quarter of its models (one snapshot per span, so a
    /// snapshot's share of a change does not grow with depth); the listed history and every kept state stay right.
    @Test func aDeepWindowFoldsItsHistoryInSpansThatGrowWithItsModels() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 0)
        let models = (0..<1_200).map { #"{"screen":"detail","params":{"id":"\#($0)"}}"# }.joined(separator: ",")
        try session.apply(window: number, batchJSON: #"[{"command":"stackAppend","models":[\#(models)]}]"#)
        let window = try session.window(number)
        let span = session.historySpan(of: window)
        #expect(span == window.graph.modelCount / 4 && span > SessionLimits().historyLength)
        for step in 0..<(3 * span) {
            try session.apply(window: number, batchJSON: step % 2 == 0 ? Self.detail : #"[{"command":"goBack"}]"#)
        }
        // Folded once (at two spans), not every 64 changes: between one and two spans are kept.
        #expect(window.history.navigations >= span && window.history.navigations < 2 * span)
        let history = try session.history(window: number)
        #expect(history.count == SessionLimits().historyLength)
        #expect(history.last?.version == window.version)
        let oldest = try session.keptVersions(window: number).lowerBound
        #expect(try session.state(window: number, at: oldest).version == oldest)
        #expect(try session.state(window: number, at: window.version - 1).version == window.version - 1)
    }

    @Test func theStateAtAnEarlierVersionIsTheStateThenAndTheWindowDoesNotChange() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 2)
        let window = try session.window(number)
        let atTwo = window.graph.snapshot()
        try session.execute(window: number, command: .goBack)
        let before = window.graph.snapshot()
        #expect(try session.state(window: number, at: 2) != atTwo)  // three versions: 2 is one push
        #expect(try session.state(window: number, at: 3) == atTwo)
        #expect(try session.state(window: number, at: 4) == before)
        #expect(try session.state(window: number, at: 0).version == 0)
        #expect(window.graph.snapshot() == before)
    }

    @Test func aVersionOutsideTheKeptRangeIsVersionNotKeptNamingTheRange() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 1)
        #expect(throws: SessionError.versionNotKept(window: number, version: 7, oldest: 0, newest: 2)) {
            try session.state(window: number, at: 7)
        }
    }

    @Test func theHistoryKeepsTheNewestHistoryLengthChangesAndTheStatesBeforeThemOnly() throws {
        var limits = SessionLimits()
        limits.historyLength = 4
        let session = try demoSession(limits: limits)
        let number = try Self.changed(session, pushes: 20)  // versions 1...21
        let history = try session.history(window: number)
        #expect(history.map(\.version) == [18, 19, 20, 21])
        let kept = try session.keptVersions(window: number)
        // A span is the length, or a quarter of the window's models when more (this window has about 24).
        let span = session.historySpan(of: try session.window(number))
        #expect(span >= 4 && span <= 6)
        #expect(kept.lowerBound <= 17 && kept.lowerBound >= 21 - 2 * span, "\(kept)")
        let atSeventeen = try session.state(window: number, at: 17)
        #expect(atSeventeen.version == 17)
        #expect(throws: SessionError.self) { try session.state(window: number, at: 1) }
        // The entries in memory stay below two spans.
        #expect(try session.window(number).history.entries.count < 2 * span)
    }

    @Test func theSessionsHistoriesTogetherStayWithinTheirByteBoundAndTheCountAgrees() throws {
        var limits = SessionLimits()
        limits.maxSessionHistoryBytes = 64 << 10
        let session = try demoSession(limits: limits)
        let id = String(repeating: "b", count: 2000)
        let push = #"[{"command":"present","presentation":{"kind":"sheet","model":{"screen":"detail","params":{"id":""#
            + id + #""}}}},{"command":"dismiss"}]"#
        var numbers: [WindowNumber] = []
        for _ in 0..<3 { numbers.append(try #require(try session.openWindow(scene: "waiting").window)) }
        for round in 0..<60 {
            try session.apply(window: numbers[round % 3], batchJSON: push)
            let sum = session.windows.reduce(0) { $0 + $1.history.bytes }
            #expect(session.historyBytes == sum)
            #expect(session.historyBytes <= limits.maxSessionHistoryBytes + 4 << 10)
        }
        // Every window still lists its newest change, and the oldest state it lists can be rebuilt.
        for number in numbers {
            let history = try session.history(window: number)
            #expect(!history.isEmpty)
            if let oldest = history.first { #expect(try session.state(window: number, at: oldest.version).version == oldest.version) }
        }
    }

    /// A scheduled batch that failed at its deadline leaves without a change; its id scheduled again, the states the
    /// history lists still rebuild — live, after a restart from the journal, and from the snapshot file.
    @Test(arguments: [false, true])
    func aScheduledBatchDroppedWithoutAChangeIsDroppedWhenTheHistoryIsRedone(_ compact: Bool) throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            number = try #require(session.openWindow(scene: "waiting").window)
            let failing = #"[{"command":"schedule","id":"x","afterMs":0,"commands":[{"command":"goBack"}]}]"#
            try session.apply(window: number, batchJSON: failing)  // version 1
            session.runDueScheduled(now: .max)  // goBack fails on the waiting screen: dropped, no version
            if compact { try session.checkpoint() }
            try session.apply(window: number, batchJSON: #"[{"command":"schedule","id":"x","afterMs":600000,"commands":[{"command":"dismissAll"}]}]"#)
            #expect(try session.state(window: number, at: 2).version == 2)
            #expect(try session.state(window: number, at: 1).version == 1)
        }
        let restored = try demoSession(directory: directory)
        #expect(try restored.state(window: number, at: 2).version == 2)
        #expect(try restored.state(window: number, at: 1).version == 1)
    }

    @Test func theHistoryComesBackFromTheJournalAfterARestartWithItsTimes() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        let history: [Session.HistoryItem]
        let atOne: WindowSnapshot
        do {
            let session = try demoSession(directory: directory)
            number = try Self.changed(session, pushes: 2)
            history = try session.history(window: number)
            atOne = try session.state(window: number, at: 1)
        }
        let journal = try String(contentsOfFile: directory + "/journal.jsonl", encoding: .utf8)
        #expect(journal.contains(#","time":"#), "\(journal)")
        let restored = try demoSession(directory: directory)
        #expect(try restored.history(window: number) == history)
        #expect(try restored.state(window: number, at: 1) == atOne)
    }

    @Test func theHistoryComesBackFromTheSnapshotFileAfterCompaction() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        let history: [Session.HistoryItem]
        let atTwo: WindowSnapshot
        do {
            let session = try demoSession(directory: directory)
            number = try Self.changed(session, pushes: 3)
            history = try session.history(window: number)
            atTwo = try session.state(window: number, at: 2)
            try session.close()  // writes the snapshot file, empties the journal
        }
        let state = try String(contentsOfFile: directory + "/state.json", encoding: .utf8)
        #expect(state.contains(#""history":{"base":"#))
        let restored = try demoSession(directory: directory)
        #expect(try restored.history(window: number) == history)
        #expect(try restored.state(window: number, at: 2) == atTwo)
    }

    @Test func aJournalWrittenBeforeTheHistoryLoadsWithoutTimes() throws {
        let directory = temporaryDirectory()
        let number: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            number = try Self.changed(session, pushes: 1)
        }
        let path = directory + "/journal.jsonl"
        let journal = try String(contentsOfFile: path, encoding: .utf8)
        try journal.replacing(#/,"time":[0-9]+/#, with: "").write(toFile: path, atomically: true, encoding: .utf8)
        let restored = try demoSession(directory: directory)
        let history = try restored.history(window: number)
        #expect(history.map(\.version) == [1, 2])
        #expect(history.allSatisfy { $0.time == nil })
        #expect(try restored.state(window: number, at: 1).version == 1)
    }

    @Test func setStateStartsTheHistoryAnewAtTheLoadedState() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 1)
        let state = String(decoding: try session.window(number).graph.snapshot().json(), as: UTF8.self)
        try session.setState(window: number, stateJSON: state)
        #expect(try session.history(window: number).isEmpty)
        #expect(try session.keptVersions(window: number) == 3...3)
    }

    @Test func theTraceHoldsTheInitialStateAndEachChangeWithStepsAndState() throws {
        let session = try demoSession()
        let number = try Self.changed(session, pushes: 1)
        let text = try session.traceJSON(window: number)
        let trace = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(trace["format"] as? String == "navsession-trace")
        #expect(trace["scene"] as? String == "main")
        #expect((trace["initial"] as? [String: Any])?["version"] as? Int == 0)
        let changes = try #require(trace["changes"] as? [[String: Any]])
        #expect(changes.map { $0["version"] as? Int } == [1, 2])
        #expect(changes.allSatisfy { $0["steps"] is [Any] && $0["state"] is [String: Any] })
        #expect((changes[1]["state"] as? [String: Any])?["version"] as? Int == 2)
    }

    @Test func aTraceLargerThanMaxTraceBytesIsLimitsExceeded() throws {
        var limits = SessionLimits()
        limits.maxTraceBytes = 2_000
        let session = try demoSession(limits: limits)
        let number = try Self.changed(session, pushes: 3)
        #expect {
            try session.traceJSON(window: number)
        } throws: { error in
            guard case SessionError.limitsExceeded(let message) = error else { return false }
            return message.contains("larger than 2000 bytes")
        }
    }
}
