import Foundation
import Glibc
import NavigationCore
import Testing

@testable import NavigationSession

/// The state directory: one writer (its lock), refused when unsafe, and written again in full when it goes
/// away while the session runs.
struct StateDirectoryTests {
    @Test func aSecondStoreOnALockedDirectoryIsRefusedNamingTheHolder() throws {
        let directory = temporaryDirectory()
        let first = try SessionStore(directory: directory)
        #expect(throws: SessionError.stateDirectoryLocked(path: directory, holder: getpid())) {
            _ = try SessionStore(directory: directory)
        }
        first.abandonForTesting()
        _ = try SessionStore(directory: directory)
    }

    @Test func theLockFileHoldsTheHoldersPid() throws {
        let directory = temporaryDirectory()
        let store = try SessionStore(directory: directory)
        let text = try String(contentsOfFile: directory + "/lock", encoding: .utf8)
        #expect(text == "\(getpid())\n")
        withExtendedLifetime(store) {}
    }

    @Test func aDirectoryOthersMayWriteToIsRefused() throws {
        let directory = temporaryDirectory()
        chmod(directory, 0o770)
        #expect {
            _ = try SessionStore(directory: directory)
        } throws: { error in
            guard case SessionError.unsafeStateDirectory(let text) = error else { return false }
            return text.contains("mode 770")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/lock"))
    }

    @Test func aDirectoryOwnedByAnotherUserIsRefused() throws {
        // Only root can hand a directory to another user.
        guard geteuid() == 0 else { return }
        let directory = temporaryDirectory()
        #expect(chown(directory, 65534, 65534) == 0)
        #expect {
            _ = try SessionStore(directory: directory)
        } throws: { error in
            guard case SessionError.unsafeStateDirectory(let text) = error else { return false }
            return text.contains("owned by uid 65534")
        }
    }

    @Test func aSymbolicLinkAsTheDirectoryIsRefused() throws {
        let target = temporaryDirectory()
        let link = temporaryDirectory() + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect {
            _ = try SessionStore(directory: link)
        } throws: { error in
            guard case SessionError.storageFailed(let text) = error else { return false }
            return text.contains("symbolic link")
        }
        #expect(files(in: target).isEmpty)
    }

    /// Scenario 7: the change after the deletion writes a full snapshot in a new directory.
    @Test func aDirectoryDeletedWhileRunningIsRecreatedWithEverything() throws {
        let directory = temporaryDirectory()
        let session = try demoSession(directory: directory)
        let main = try loggedInMain(session)
        try FileManager.default.removeItem(atPath: directory)
        for id in 0..<5 {
            try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "\(id)"])))
        }
        session.store?.abandonForTesting()
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(main).graph.snapshot() == session.window(main).graph.snapshot())
    }

    @Test func aDirectoryReplacedWhileRunningIsWrittenInFull() throws {
        try expectEverythingRestored { directory in
            try FileManager.default.moveItem(atPath: directory, toPath: directory + ".moved")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        }
    }

    @Test func aJournalDeletedWhileRunningIsWrittenAgainWithASnapshot() throws {
        try expectEverythingRestored { directory in
            try FileManager.default.removeItem(atPath: directory + "/journal.jsonl")
        }
    }

    @Test func aDirectoryAboveTheStateDirectoryMovedWhileRunningIsWrittenAgainAtItsPath() throws {
        try expectEverythingRestored(in: "state") { directory in
            let parent = (directory as NSString).deletingLastPathComponent
            try FileManager.default.moveItem(atPath: parent, toPath: parent + ".moved")
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: false)
        }
    }

    @Test func aFileRenamedOverTheJournalWhileRunningIsWrittenAgainWithASnapshot() throws {
        try expectEverythingRestored { directory in
            #expect(FileManager.default.createFile(atPath: directory + "/other", contents: Data()))
            #expect(rename(directory + "/other", directory + "/journal.jsonl") == 0)
        }
    }

    @Test func aJournalDeletedAfterARestartIsWrittenAgainWithASnapshot() throws {
        try expectEverythingRestored(restartingFirst: true) { directory in
            try FileManager.default.removeItem(atPath: directory + "/journal.jsonl")
        }
    }

    /// Opens a session in a state directory (`in`: a directory of that name inside a temporary one), optionally
    /// restarts it and makes a change, lets `disturb` act on its files while it runs, makes one more change, and
    /// checks that a restart from the directory's path restores the window as the session left it.
    private func expectEverythingRestored(
        in subdirectory: String? = nil, restartingFirst: Bool = false, _ disturb: (String) throws -> Void
    ) throws {
        let directory = temporaryDirectory() + (subdirectory.map { "/" + $0 } ?? "")
        var session = try demoSession(directory: directory)
        let main = try loggedInMain(session)
        if restartingFirst {
            session.store?.abandonForTesting()
            session = try demoSession(directory: directory)
            try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "0"])))
        }
        try disturb(directory)
        try session.execute(window: main, command: .stackAppend(.screen("detail", params: ["id": "1"])))
        session.store?.abandonForTesting()
        let restored = try demoSession(directory: directory)
        #expect(try restored.window(main).graph.snapshot() == session.window(main).graph.snapshot())
    }
}
