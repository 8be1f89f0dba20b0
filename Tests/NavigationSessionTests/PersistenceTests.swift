import Foundation
import Logging
import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

struct PersistenceTests {
    /// Snapshots, versions, scenes and ties of every window, for whole-session equality.
    struct Picture: Equatable {
        var version: UInt64
        var next: WindowNumber
        var windows: [WindowNumber: WindowSnapshot]
        var scenes: [String]
        var owners: [String?]
        var pending: [String?]

        init(_ session: Session) {
            version = session.version
            next = session.nextWindowNumber
            windows = Dictionary(uniqueKeysWithValues: session.windows.map { ($0.number, $0.graph.snapshot()) })
            scenes = session.windows.map(\.scene)
            owners = session.windows.map(\.closeOnExitOwner)
            pending = session.windows.map(\.pendingDeepLink)
        }
    }

    /// Opens windows and changes them in every journaled way.
    func populate(_ session: Session) throws {
        let main = try loggedInMain(session)
        try session.openURL("navsession-demo://detail/42")
        try session.execute(window: main, command: .present(.sheet(.stacked(.screen("editor", params: ["id": "42"])))))
        let sheet = try session.window(main).graph.activeModelID
        try session.report(window: main, .dismissedInteractively(try #require(session.window(main).graph.parent(of: sheet))))
        // Routes as input: the detail stays, an editor sheet and a pushed profile are created.
        try session.execute(window: main, command: .setRoutes([
            .push("detail", params: ["id": "42"]), .sheet("editor", params: ["id": "1"], withNavigation: true),
            .push("profile"),
        ]))
        let waiting = try #require(session.openWindow(scene: "waiting", params: ["reason": "a"]).window)
        try session.setCloseOnExit(window: waiting, owner: ":1.5")
        let gone = try #require(session.openWindow(scene: "waiting").window)
        try session.dismissWindow(gone)
    }

    @Test func restoreAfterCleanCloseIsEqual() throws {
        let directory = temporaryDirectory()
        let session = try demoSession(directory: directory)
        try populate(session)
        let before = Picture(session)
        try session.close()
        session.store?.abandonForTesting()  // as a restart after the process ended would find it
        let restored = try demoSession(directory: directory)
        #expect(Picture(restored) == before)
    }

    @Test func restoreAfterKillKeepsTheLastAcknowledgedChange() throws {
        let directory = temporaryDirectory()
        var before: Picture?
        do {
            let session = try demoSession(directory: directory)
            try populate(session)
            let main = try #require(session.windows.first?.number)
            try session.execute(window: main, command: .tabsSelectItem("settings"))
            before = Picture(session)
            // Dropped without close(): like SIGKILL, only what was written survives.
        }
        let restored = try demoSession(directory: directory)
        #expect(Picture(restored) == before)
        #expect(try restored.window(#require(restored.windows.first?.number)).selectedTab == "settings")
    }

    // The split scene's selection, visibility, collapsed form and push rule, from the journal.
    @Test func aSplitsFocusVisibilityAndCollapsedFormSurviveAKill() throws {
        let directory = temporaryDirectory()
        var before: Picture?
        let split: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            split = try #require(session.openWindow(scene: "split").window)
            try session.execute(window: split, command: .stackAppend(.screen("message", params: ["id": "42"])))
            try session.execute(window: split, command: .setColumnVisibility(container: nil, visibility: .doubleColumn))
            try session.report(window: split, .collapsed(split: 1, collapsed: true))
            try session.execute(window: split, command: .selectChild(container: nil, child: .model(.tag("sidebar"))))
            before = Picture(session)
            // Dropped without close(): like SIGKILL, only what was written survives.
        }
        let restored = try demoSession(directory: directory)
        #expect(Picture(restored) == before)
        let graph = try restored.window(split).graph
        #expect(graph.model(1)?.splitState == SplitState(visibility: .doubleColumn, collapsed: true))
        #expect(graph.activeModelID == 3)
    }

    @Test func tabHistoryAndGoingBackWithAResultSurviveAKill() throws {
        let directory = temporaryDirectory()
        var before: Picture?
        let main: WindowNumber
        do {
            let session = try demoSession(directory: directory)
            main = try loggedInMain(session)
            let tabs = ModelSpec.tabs([
                TabSpec(id: "home", title: "Home", model: .stacked(.screen("home"))),
                TabSpec(id: "settings", title: "Settings", model: .stacked(.screen("settings"))),
            ], policy: TabPolicy(reselect: .popToRoot, backBehavior: .history))
            try session.execute(window: main, command: .switchModel(tabs))
            try session.execute(window: main, command: .tabsSelectItem("settings"))
            try session.execute(window: main, command: .stackAppend(.screen("about")))
            try session.execute(window: main, command: .present(.sheet(.screen("editor", params: ["id": "1"]))))
            try session.execute(window: main, command: .dismissReturning(result: .object(["saved": .bool(true)])))
            try session.execute(window: main, command: .goBack(result: .string("done")))
            before = Picture(session)
            // Dropped without close(): like SIGKILL, only what was written survives.
        }
        let restored = try demoSession(directory: directory)
        #expect(Picture(restored) == before)
        let graph = try restored.window(main).graph
        let tabsModel = try #require(graph.snapshot().models.first { $0.kind == .tabs })
        #expect(tabsModel.tabState == TabState(policy: TabPolicy(reselect: .popToRoot, backBehavior: .history), history: ["home"]))
        try restored.execute(window: main, command: .goBack)
        #expect(try restored.window(main).selectedTab == "home")
    }

    @Test func compactionThenMoreChangesRestores() throws {
        let directory = temporaryDirectory()
        let session = try demoSession(directory: directory, compactionInterval: 3)
        try populate(session)
        let main = try #require(session.windows.first?.number)
        let store = try #require(session.store)
        let generation = store.generation
        // Compaction waits for the journal to hold a snapshot's worth of bytes.
        var changes = 0
        while store.generation == generation, changes < 1000 {
            try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "\(changes)"])))
            try session.execute(window: main, command: .stackDropLast(1))
            changes += 2
        }
        #expect(store.generation > generation)
        try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "2"])))
        #expect(store.entriesSinceSnapshot < 3)
        let before = Picture(session)
        session.store?.abandonForTesting()  // as a restart after the process ended would find it
        let restored = try demoSession(directory: directory, compactionInterval: 3)
        #expect(Picture(restored) == before)
    }

    @Test func compactionWaitsForASnapshotsWorthOfJournal() throws {
        let session = try demoSession(directory: temporaryDirectory(), compactionInterval: 3)
        try populate(session)
        let store = try #require(session.store)
        let main = try #require(session.windows.first?.number)
        try session.execute(window: main, command: .stackDropToRoot)
        let generation = store.generation
        var lines = 0
        while store.generation == generation {
            #expect(store.journalBytes < store.snapshotBytes || store.entriesSinceSnapshot < 3)
            try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "1"])))
            try session.execute(window: main, command: .stackDropLast(1))
            lines += 2
            try #require(lines < 10_000)
        }
        // Compacted once the journal had as many bytes as the snapshot: far more than 3 lines.
        #expect(lines > 3)
        #expect(store.journalBytes == 0 || store.entriesSinceSnapshot < 2)
    }

    @Test func pendingDeepLinkSurvivesRestore() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            try session.openURL("navsession-demo://detail/9")
        }
        let restored = try demoSession(directory: directory)
        let number = try #require(restored.windows.first?.number)
        #expect(try restored.window(number).pendingDeepLink == "navsession-demo://detail/9")
        try restored.execute(window: number, command: .switchModel(.screen("main")))
        #expect(try restored.window(number).graph.routes == [.push("detail", params: ["id": "9"])])
    }

    @Test func windowNumbersAreNotReusedAfterRestore() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            let a = try #require(session.openWindow(scene: "waiting").window)
            let b = try #require(session.openWindow(scene: "waiting").window)
            try session.dismissWindow(b)
            try session.dismissWindow(a)
        }
        let restored = try demoSession(directory: directory)
        #expect(restored.windows.isEmpty)
        #expect(try restored.openWindow(scene: "waiting").window == 3)
    }

    @Test func corruptStateFileIsMovedAsideAndSessionStartsFresh() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            try populate(session)
            try session.close()
        }
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: directory + "/state.json"))
        let recorder = LogRecorder()
        let restored = try demoSession(directory: directory, logger: recorder.logger)
        #expect(restored.windows.isEmpty)
        #expect(files(in: directory).contains { $0.hasPrefix("state.json.corrupt-") })
        #expect(recorder.records.contains { $0.level == .error && $0.message.contains("moved aside") })
    }

    @Test func foreignApplicationStateIsMovedAside() throws {
        let directory = temporaryDirectory()
        let other = try Manifest(
            applicationID: "com.example.Other", screens: [ScreenDeclaration(name: "home")],
            scenes: [SceneDeclaration(name: "main", isDefault: true, root: .stacked(.screen("home")))])
        do {
            let session = try Session(manifest: other, store: SessionStore(directory: directory))
            try session.openWindow(scene: "main")
            try session.close()
        }
        let recorder = LogRecorder()
        let restored = try demoSession(directory: directory, logger: recorder.logger)
        #expect(restored.windows.isEmpty)
        #expect(files(in: directory).contains { $0.hasPrefix("state.json.corrupt-") })
        let line = recorder.records.first { $0.level == .error }
        #expect(line?.metadata["reason"]?.contains("com.example.Other") == true)
    }

    @Test func journalVersionMismatchKeepsTheStateBeforeTheEntryAndSetsTheFilesAside() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            _ = try loggedInMain(session)
        }
        let path = directory + "/journal.jsonl"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""version":1"#, with: #""version":7"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let recorder = LogRecorder()
        let restored = try demoSession(directory: directory, logger: recorder.logger)
        #expect(restored.windows.map(\.number) == [1])
        #expect(try restored.window(1).graph.version < 7)
        #expect(files(in: directory).contains { $0.hasPrefix("journal.jsonl.corrupt-") })
        #expect(restored.nextWindowNumber == 2)
    }

    @Test func tornLastJournalLineIsDropped() throws {
        let directory = temporaryDirectory()
        var before: Picture?
        do {
            let session = try demoSession(directory: directory)
            _ = try loggedInMain(session)
            before = Picture(session)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/journal.jsonl"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"op":"batch","wind"#.utf8))
        try handle.close()
        let restored = try demoSession(directory: directory)
        #expect(Picture(restored) == before)
        #expect(!files(in: directory).contains { $0.contains("corrupt") })
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(
            SessionStore.defaultDirectory(applicationID: "org.a.B", environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
                == "/s/navsession/org.a.B")
        #expect(
            SessionStore.defaultDirectory(applicationID: "org.a.B", environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"])
                == "/h/.local/state/navsession/org.a.B")
    }
}

struct CompactionCrashTests {
    /// Reopens the session in `directory`, expects its first window on `settings`, selects `home`, and drops
    /// the session without `close()`, as a kill would.
    func reopenExpectingSettingsThenSelectHome(_ directory: String) throws {
        let session = try demoSession(directory: directory)
        let number = try #require(session.windows.first?.number)
        #expect(try session.window(number).selectedTab == "settings")
        try session.execute(window: number, command: .tabsSelectItem("home"))
    }

    /// The selected tab of the first window restored from `directory`.
    func restoredTab(_ directory: String) throws -> String {
        let restored = try demoSession(directory: directory)
        return try restored.window(#require(restored.windows.first?.number)).selectedTab
    }

    @Test func staleJournalAfterInterruptedCompactionIsReplacedBeforeAppending() throws {
        let directory = temporaryDirectory()
        let journal = directory + "/journal.jsonl"
        var staleJournal = Data()
        do {
            let session = try demoSession(directory: directory)
            let number = try loggedInMain(session)
            staleJournal = try Data(contentsOf: URL(fileURLWithPath: journal))
            try session.execute(window: number, command: .tabsSelectItem("settings"))
            try session.close()
        }
        // A crash after the snapshot rename but before the journal rename leaves the old journal.
        try staleJournal.write(to: URL(fileURLWithPath: journal))
        try reopenExpectingSettingsThenSelectHome(directory)
        #expect(try restoredTab(directory) == "home")
    }

    /// Compaction truncates the journal before writing its header; a kill in between leaves `leftover`.
    @Test(arguments: ["", #"{"format":"navsession-jou"#])
    func aJournalCutBeforeItsHeaderLoadsFromTheSnapshotAndRestarts(leftover: String) throws {
        let directory = temporaryDirectory()
        let journal = directory + "/journal.jsonl"
        do {
            let session = try demoSession(directory: directory)
            let number = try loggedInMain(session)
            try session.execute(window: number, command: .tabsSelectItem("settings"))
            try session.close()
        }
        try Data(leftover.utf8).write(to: URL(fileURLWithPath: journal))
        try reopenExpectingSettingsThenSelectHome(directory)
        #expect(try restoredTab(directory) == "home")
        #expect(!files(in: directory).contains { $0.contains("corrupt") })
    }

    @Test func aJournalWhoseHeaderCouldNotBeWrittenIsStartedAgainBeforeTheNextLine() throws {
        let directory = temporaryDirectory()
        let journal = directory + "/journal.jsonl"
        let session = try demoSession(directory: directory)
        let number = try loggedInMain(session)
        let store = try #require(session.store)
        // The snapshot is written, the journal truncated, and its header refused (ENOSPC from /dev/full).
        store.closeJournalForTesting()
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.createSymbolicLink(atPath: journal, withDestinationPath: "/dev/full")
        #expect(throws: SessionError.self) { try session.close() }
        // What such a failure leaves on a real disk: an empty journal.
        try FileManager.default.removeItem(atPath: journal)
        _ = FileManager.default.createFile(atPath: journal, contents: Data())
        try session.execute(window: number, command: .tabsSelectItem("settings"))
        // Dropped without close(): what the files hold is what a kill leaves.
        session.store?.abandonForTesting()
        #expect(try restoredTab(directory) == "settings")
        #expect(!files(in: directory).contains { $0.contains("corrupt") })
    }

    @Test func compactionRewritesTheJournalInPlaceLeavingOnlyItsHeader() throws {
        let directory = temporaryDirectory()
        let journal = directory + "/journal.jsonl"
        let session = try demoSession(directory: directory, compactionInterval: 2)
        let number = try loggedInMain(session)
        let store = try #require(session.store)
        let generation = store.generation
        let inode = try FileManager.default.attributesOfItem(atPath: journal)[.systemFileNumber] as? Int
        var changes = 0
        while store.generation == generation {
            try session.execute(window: number, command: .tabsSelectItem(changes % 2 == 0 ? "settings" : "home"))
            changes += 1
            try #require(changes < 10_000)
        }
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""generation":\#(store.generation)"#) == true)
        #expect(try FileManager.default.attributesOfItem(atPath: journal)[.systemFileNumber] as? Int == inode)
        #expect(!files(in: directory).contains { $0.hasSuffix(".tmp") })
    }
}

struct StorageFailureTests {
    @Test func openThatCannotBeWrittenIsUndoneAndTheNextChangeWritesASnapshot() throws {
        let directory = temporaryDirectory()
        let session = try demoSession(directory: directory)
        let main = try loggedInMain(session)
        // Make the journal unwritable by replacing it with a directory.
        let journal = directory + "/journal.jsonl"
        let store = try #require(session.store)
        store.closeJournalForTesting()
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: false)
        do {
            try session.openWindow(scene: "waiting")
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "storageFailed")
        }
        #expect(session.windows.map(\.number) == [main])
        try FileManager.default.removeItem(atPath: journal)
        let next = try #require(session.openWindow(scene: "waiting").window)
        #expect(next == main + 2)
        session.store?.abandonForTesting()  // as a restart after the process ended would find it
        let restored = try demoSession(directory: directory)
        #expect(restored.windows.map(\.number) == [main, next])
    }
}

@Suite struct RecoveryPromiseTests {
    @Test func windowNumbersAreNotReusedAfterDamagedFilesAreSetAside() throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            for _ in 0..<3 { _ = try session.openWindow(scene: "waiting") }
        }
        let path = directory + "/journal.jsonl"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("\u{1}\u{2}garbage that is not JSON\n".utf8))
        try handle.close()
        let restored = try demoSession(directory: directory)
        #expect(files(in: directory).contains { $0.hasPrefix("journal.jsonl.corrupt-") })
        let opened = try #require(try restored.openWindow(scene: "waiting").window)
        #expect(opened > 3)
    }

    @Test func anUnreadableStateStopsStartupNamingTheFileAndKeepsIt() throws {
        let directory = temporaryDirectory()
        do { _ = try demoSession(directory: directory) }
        let path = directory + "/state.json"
        try FileManager.default.removeItem(atPath: path)
        // A symlink loop cannot be opened even by root (ELOOP), unlike a file without read permission.
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
        #expect {
            _ = try demoSession(directory: directory)
        } throws: { error in
            guard let error = error as? SessionError, case .unreadableState(let text) = error else { return false }
            return text.contains(path)
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == path)
        #expect(!files(in: directory).contains { $0.contains("corrupt") })
    }

    @Test func anEmptyJournalIsLogged() throws {
        let directory = temporaryDirectory()
        do { _ = try demoSession(directory: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data())
        let recorder = LogRecorder()
        _ = try demoSession(directory: directory, logger: recorder.logger)
        #expect(recorder.records.contains { $0.level == .warning && $0.message.description.contains("empty") })
    }
}
