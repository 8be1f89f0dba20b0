import Foundation
import Logging
import NavigationCore
import Testing

@testable import NavigationSession

/// Moving a branch between windows (`MoveModel`): tear-off and merge, with what the models carry, journaled as one
/// line, refused precisely where it cannot go.
struct MoveSessionTests {
    static let manifestJSON = #"""
        {
          "format": 1, "id": "org.navsession.MoveTest", "title": "Move",
          "screens": [
            {"name": "list", "title": "List"}, {"name": "detail", "title": "Detail", "optional": ["id"]},
            {"name": "draft", "title": "Draft"}, {"name": "inbox", "title": "Inbox"}
          ],
          "scenes": [
            {"name": "browser", "title": "Browser", "default": true, "instances": "multiple",
             "root": {"kind": "tabs", "selectedTab": "a", "tabs": [
               {"id": "a", "title": "A", "model": {"kind": "stack", "path": [{"screen": "list"}]}},
               {"id": "b", "title": "B", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}}]}}
          ]
        }
        """#

    func session(directory: String? = nil) throws -> Session {
        let store = try directory.map { try SessionStore(directory: $0, logger: .init(label: "test")) }
        return try Session(manifest: Manifest(json: Self.manifestJSON), store: store)
    }

    /// Window `number`'s tab `tab`'s model id.
    func tabModel(_ session: Session, _ number: WindowNumber, _ tab: String) throws -> ModelID {
        let graph = try session.window(number).graph
        guard case .tabs(let tabs, _)? = graph.model(graph.rootID)?.content, let found = tabs.first(where: { $0.id == tab }) else {
            throw SessionError.invalidArguments("no tab \(tab)")
        }
        return found.model
    }

    /// What a branch holds, without ids: screens, params, renderer state and marks in pre-order.
    func content(_ session: Session, _ number: WindowNumber, from id: ModelID) throws -> [String] {
        let snapshot = try session.window(number).graph.snapshot()
        var members: Set<ModelID> = [id]
        var result: [String] = []
        for model in snapshot.models where members.contains(model.id) || model.parent.map(members.contains) == true {
            members.insert(model.id)
            let state = model.rendererState.map { String(describing: $0) } ?? "-"
            result.append("\(model.screen) \(model.params) \(state) \(model.protection?.owner ?? "-")")
        }
        return result
    }

    /// A tab holding a pushed detail with a draft (renderer state) and a mark goes to a new window with its ids, and
    /// back into the first window under fresh ids; the same content each time, one copy.
    @Test func aTabTearsOffAndMergesBackWithItsContent() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        try session.apply(window: first, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"7"}}]}]"#)
        let detail = try session.window(first).graph.activeModelID
        try session.apply(
            window: first,
            batchJSON: #"[{"command":"setRendererState","model":\#(detail.rawValue),"state":{"draft":"hello"}},"#
                + #"{"command":"protect","model":\#(detail.rawValue),"reason":"unsaved","owner":":1.9"}]"#, client: ":1.9")
        let tab = try tabModel(session, first, "a")
        let before = try content(session, first, from: tab)

        let torn = try session.moveModel(window: first, model: tab, to: 0, placementJSON: "")
        let second = try #require(torn.window)
        #expect(second != first)
        let newRoot = try session.window(second).graph.rootID
        #expect(newRoot == tab, "a new window keeps the ids")
        #expect(try content(session, second, from: tab) == before)
        #expect(try session.window(second).graph.model(detail)?.protection?.owner == ":1.9")
        let remaining = try session.window(first).graph
        guard case .tabs(let tabs, let selected)? = remaining.model(remaining.rootID)?.content else {
            Issue.record("no tabs")
            return
        }
        #expect(tabs.map(\.id) == ["b"] && selected == "b")
        #expect(remaining.model(detail) == nil)

        // Merge back: the new window's root is the tab's stack, which is its root: move its pushed detail instead?
        // A window's root cannot leave; a browser merges the tab: here the stack suffix goes into tab b's stack.
        let merged = try session.moveModel(window: second, model: detail, to: first, placementJSON: "")
        #expect(merged.window == first)
        let changes = merged.changes(of: first)
        guard case .moved(let record)? = changes.last?.cause else {
            Issue.record("the cause is not a move: \(String(describing: changes.last?.cause))")
            return
        }
        let mapped = try #require(record.ids[detail])
        #expect(mapped != detail, "an existing window gives fresh ids")
        #expect(try session.window(first).graph.model(mapped)?.params == ["id": "7"])
        #expect(try session.window(first).graph.model(mapped)?.protection?.owner == ":1.9")
        #expect(try session.window(second).graph.model(detail) == nil)
        #expect(record.transaction == "move-\(second)-\(try session.window(second).graph.version)")
    }

    /// A stack suffix (a pushed screen and the ones above it) goes onto the target's named stack at a position.
    @Test func aStackSuffixGoesOntoANamedStackAtAPosition() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        let second = try #require(session.openWindow(scene: "browser").window)
        try session.apply(
            window: first,
            batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"}},{"screen":"draft"}]}]"#)
        let stack = try tabModel(session, first, "a")
        guard case .stack(let path, _)? = try session.window(first).graph.model(stack)?.content else {
            Issue.record("no stack")
            return
        }
        let targetStack = try tabModel(session, second, "b")
        let outcome = try session.moveModel(
            window: first, model: path[1].model, to: second, placementJSON: #"{"stack":\#(targetStack.rawValue)}"#)
        #expect(outcome.window == second)
        guard case .stack(let left, _)? = try session.window(first).graph.model(stack)?.content,
            case .stack(let got, _)? = try session.window(second).graph.model(targetStack)?.content
        else {
            Issue.record("no stacks")
            return
        }
        #expect(left.count == 1)
        #expect(try got.map { try session.window(second).graph.model($0.model)?.screen } == ["inbox", "detail", "draft"])
    }

    /// Both windows' changes are one journal line: a restart, from the journal or from a compacted snapshot, finds
    /// the move whole.
    @Test(arguments: [false, true])
    func aMoveComesBackWholeAfterARestart(_ compact: Bool) throws {
        let directory = temporaryDirectory()
        var expected: [WindowNumber: WindowSnapshot] = [:]
        do {
            let session = try session(directory: directory)
            let first = try #require(session.openWindow(scene: "browser").window)
            try session.apply(window: first, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail"}]}]"#)
            let second = try #require(try session.moveModel(window: first, model: tabModel(session, first, "a"), to: 0, placementJSON: "").window)
            let third = try #require(session.openWindow(scene: "browser").window)
            let graph = try session.window(second).graph
            guard case .stack(let path, _)? = graph.model(graph.rootID)?.content else { throw SessionError.invalidArguments("no stack") }
            try session.moveModel(window: second, model: path[1].model, to: third, placementJSON: "")
            if compact { try session.checkpoint() }
            for number in [first, second, third] { expected[number] = try session.window(number).graph.snapshot() }
            let lines = try String(contentsOfFile: directory + "/" + SessionStore.journalFileName, encoding: .utf8)
            if !compact { #expect(lines.components(separatedBy: #""op":"move""#).count == 3, "one line per move") }
        }
        let restored = try session(directory: directory)
        for (number, snapshot) in expected {
            #expect(try restored.window(number).graph.snapshot().models == snapshot.models)
        }
    }

    /// What cannot move, or cannot go where asked, is refused precisely and changes nothing.
    @Test func whatCannotMoveIsRefusedAndNothingChanges() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        let second = try #require(session.openWindow(scene: "browser").window)
        let graph = try session.window(first).graph
        let stack = try tabModel(session, first, "a")
        guard case .stack(let path, _)? = graph.model(stack)?.content else { throw SessionError.invalidArguments("no stack") }
        let version = graph.version
        let cases: [(ModelID, WindowNumber, String, String)] = [
            (graph.rootID, 0, "", "invalidSpec"),  // the window's root
            (path[0].model, second, "", "invalidSpec"),  // a stack's root
            (ModelID(rawValue: 999), second, "", "unknownModel"),
            (stack, second, #"{"stack":1}"#, "invalidSpec"),  // a tab into a stack
            (stack, second, #"{"tabs":1,"position":9}"#, "invalidSpec"),
            (stack, second, #"{"tabs":1,"tab":"a"}"#, "invalidSpec"),  // the tab id is taken
            (stack, second, #"{"nope":1}"#, "invalidSpec"),
            (stack, first, "", "invalidArguments"),  // the same window
            (stack, 77, "", "unknownWindow"),
        ]
        for (model, target, placement, expected) in cases {
            var caught: SessionError?
            do {
                try session.moveModel(window: first, model: model, to: target, placementJSON: placement)
            } catch {
                caught = error
            }
            #expect(errorCase(caught) == expected, "\(model) → \(target) \(placement): \(String(describing: caught))")
        }
        #expect(try session.window(first).graph.version == version)
        #expect(session.windows.count == 2)
    }

    /// The last tab stays: a tab container keeps one.
    @Test func theLastTabStays() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        try session.moveModel(window: first, model: tabModel(session, first, "b"), to: 0, placementJSON: "")
        #expect(throws: SessionError.self) {
            try session.moveModel(window: first, model: try tabModel(session, first, "a"), to: 0, placementJSON: "")
        }
    }

    /// A tab merged into a window with a tab of its id becomes `<id>-2`, selected, and the record says so.
    @Test func aTabWhoseIdIsTakenGetsASuffix() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        let second = try #require(session.openWindow(scene: "browser").window)
        let outcome = try session.moveModel(window: first, model: tabModel(session, first, "a"), to: second, placementJSON: "")
        guard case .moved(let record)? = outcome.changes(of: second).last?.cause else {
            Issue.record("no move")
            return
        }
        #expect(record.tab == "a-2")
        let graph = try session.window(second).graph
        guard case .tabs(let tabs, let selected)? = graph.model(graph.rootID)?.content else { return }
        #expect(tabs.map(\.id) == ["a", "b", "a-2"] && selected == "a-2")
    }

    /// A move is not undone in one window (the models would be in two): it clears both windows' undo.
    @Test func aMoveClearsUndoInBothWindows() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        let second = try #require(session.openWindow(scene: "browser").window)
        try session.apply(window: first, batchJSON: #"[{"command":"tabsSelectItem","tab":"b"}]"#)
        try session.apply(window: second, batchJSON: #"[{"command":"tabsSelectItem","tab":"b"}]"#)
        try session.moveModel(window: first, model: tabModel(session, first, "a"), to: second, placementJSON: "")
        for number in [first, second] {
            #expect(session.undoAbilities(of: try session.window(number)).canUndo == false)
            #expect(throws: SessionError.nothingToUndo(window: number)) { try session.undo(window: number) }
        }
    }

    /// A window's whole content moving into another leaves its root stack behind to finish: a mark there refuses the
    /// move (as it would the close), and nothing changes.
    @Test func aMarkOnWhatStaysBehindRefusesAWholeWindowMove() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        let torn = try #require(try session.moveModel(window: first, model: tabModel(session, first, "a"), to: 0, placementJSON: "").window)
        let tornGraph = try session.window(torn).graph
        try session.apply(window: torn, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail"}]}]"#)
        guard case .stack(let path, _)? = tornGraph.model(tornGraph.rootID)?.content else { throw SessionError.invalidArguments("no stack") }
        try session.apply(
            window: torn,
            batchJSON: #"[{"command":"protect","model":\#(tornGraph.rootID.rawValue),"reason":"root","owner":":1.4"}]"#, client: ":1.4")
        let before = try session.window(torn).graph.snapshot()
        var caught: SessionError?
        do {
            try session.moveModel(window: torn, model: path[0].model, to: first, placementJSON: "")
        } catch {
            caught = error
        }
        #expect(errorCase(caught) == "prevented", "\(String(describing: caught))")
        #expect(try session.window(torn).graph.snapshot() == before)
    }

    /// The `moveModel` command does the same from a window's batch, alone in it; beside other commands it fails.
    @Test func theMoveModelCommandMovesAloneInItsBatch() throws {
        let session = try session()
        let first = try #require(session.openWindow(scene: "browser").window)
        let tab = try tabModel(session, first, "b")
        #expect(throws: SessionError.self) {
            try session.apply(
                window: first,
                batchJSON: #"[{"command":"moveModel","model":\#(tab.rawValue),"toWindow":0},{"command":"tabsSelectItem","tab":"a"}]"#)
        }
        let outcome = try session.apply(
            window: first, batchJSON: #"[{"command":"moveModel","model":\#(tab.rawValue),"toWindow":0}]"#)
        #expect(outcome.openedWindows.count == 1)
        #expect(session.windows.count == 2)
    }
}

/// A move asks both windows' guards: leaving the source (a guard on what moves) and entering the target.
struct MoveGuardTests {
    static func manifest(when: String) -> String {
        MoveSessionTests.manifestJSON.replacingOccurrences(
            of: #""scenes": ["#,
            with: #""guards": {"drafts": {"covers": {"screens": ["detail"]}, "when": ["\#(when)"], "onAbsent": "deny"}},"#
                + "\n" + #""scenes": ["#)
    }

    @Test(arguments: ["leave", "enter"])
    func aGuardOfEitherWindowRefusesTheMoveAndNothingChanges(_ when: String) throws {
        // The detail is pushed before the guard exists, then the manifest gains it (a reload keeps the windows).
        let session = try Session(manifest: Manifest(json: MoveSessionTests.manifestJSON))
        let first = try #require(session.openWindow(scene: "browser").window)
        let second = try #require(session.openWindow(scene: "browser").window)
        try session.apply(window: first, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail"}]}]"#)
        try session.reloadManifest(Self.manifest(when: when))
        let detail = try session.window(first).graph.activeModelID
        let before = [try session.window(first).graph.snapshot(), try session.window(second).graph.snapshot()]
        var caught: SessionError?
        do {
            try session.moveModel(window: first, model: detail, to: second, placementJSON: "")
        } catch {
            caught = error
        }
        guard case .navigation(.denied(let name, _))? = caught else {
            Issue.record("expected the guard's refusal, got \(String(describing: caught))")
            return
        }
        #expect(name == "drafts")
        #expect([try session.window(first).graph.snapshot(), try session.window(second).graph.snapshot()] == before)
    }
}

/// A crash at any point of a move: the move's one journal line cut at every byte (a write interrupted by SIGKILL)
/// leaves the moved model in exactly one window when the session comes back — the old place or the new one.
struct MoveCrashTests {
    @Test func aMoveCutAtEveryByteOfItsJournalLineLeavesExactlyOneCopy() throws {
        let directory = temporaryDirectory()
        let tests = MoveSessionTests()
        do {
            let session = try tests.session(directory: directory)
            let first = try #require(session.openWindow(scene: "browser").window)
            let second = try #require(session.openWindow(scene: "browser").window)
            try session.apply(window: first, batchJSON: #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"7"}}]}]"#)
            let detail = try session.window(first).graph.activeModelID
            try session.apply(
                window: first, batchJSON: #"[{"command":"setRendererState","model":\#(detail.rawValue),"state":{"draft":"x"}}]"#)
            try session.moveModel(window: first, model: detail, to: second, placementJSON: "")
        }
        let journal = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + SessionStore.journalFileName))
        let text = String(decoding: journal, as: UTF8.self)
        let range = try #require(text.range(of: #"{"from":"#, options: .backwards) ?? text.range(of: #""op":"move""#))
        let lineStart = text.utf8.distance(from: text.startIndex, to: text[..<range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex)
        let lineEnd = journal.count
        #expect(lineEnd - lineStart > 100)
        var outcomes: Set<String> = []
        var cut = lineStart
        while cut <= lineEnd {
            let copy = temporaryDirectory()
            for name in files(in: directory) where name != SessionStore.journalFileName && !name.hasSuffix(".lock") {
                try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
            }
            try journal.prefix(cut).write(to: URL(fileURLWithPath: copy + "/" + SessionStore.journalFileName))
            let restored = try tests.session(directory: copy)
            var holders: [WindowNumber] = []
            for window in restored.windows {
                let models = window.graph.snapshot().models
                if models.contains(where: { $0.screen == "detail" && $0.params == ["id": "7"] && $0.rendererState != nil }) {
                    holders.append(window.number)
                }
            }
            #expect(holders.count == 1, "cut at byte \(cut) of \(lineEnd): the detail is in windows \(holders)")
            outcomes.insert(holders.map(String.init).joined())
            try? FileManager.default.removeItem(atPath: copy)
            // Every byte near the ends, a stride in between (the line's middle is one kind of cut).
            cut += (cut - lineStart < 64 || lineEnd - cut < 64) ? 1 : 37
        }
        #expect(outcomes == ["1", "2"], "both the old and the new place were seen: \(outcomes)")
    }
}
