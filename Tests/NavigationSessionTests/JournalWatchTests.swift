import Foundation
import Glibc
import Testing

@testable import NavigationSession

/// The watch that spares the store a lookup of the journal's path before every line: quiet while only the store's
/// own files change, disturbed by anything that moves the journal's path, absent where it could not vouch.
struct JournalWatchTests {
    @Test func theStoresOwnFilesBesideTheJournalLeaveItUndisturbed() throws {
        let directory = temporaryDirectory()
        let watch = try #require(JournalWatch(directory: directory, fileName: "journal.jsonl"))
        #expect(FileManager.default.createFile(atPath: directory + "/state.json.tmp", contents: Data("{}".utf8)))
        #expect(rename(directory + "/state.json.tmp", directory + "/state.json") == 0)
        #expect(unlink(directory + "/state.json") == 0)
        #expect(watch.undisturbed())
    }

    @Test func removingTheJournalDisturbsItOnceItsEventIsRead() throws {
        let directory = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data()))
        let watch = try #require(JournalWatch(directory: directory, fileName: "journal.jsonl"))
        #expect(unlink(directory + "/journal.jsonl") == 0)
        #expect(!watch.undisturbed())
        #expect(watch.undisturbed())
    }

    @Test func renamingAFileOverTheJournalDisturbsIt() throws {
        let directory = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data()))
        #expect(FileManager.default.createFile(atPath: directory + "/other", contents: Data()))
        let watch = try #require(JournalWatch(directory: directory, fileName: "journal.jsonl"))
        #expect(rename(directory + "/other", directory + "/journal.jsonl") == 0)
        #expect(!watch.undisturbed())
    }

    @Test func movingADirectoryAboveTheStateDirectoryDisturbsIt() throws {
        let parent = temporaryDirectory()
        let directory = parent + "/state"
        #expect(mkdir(directory, 0o700) == 0)
        let watch = try #require(JournalWatch(directory: directory, fileName: "journal.jsonl"))
        #expect(rename(parent, parent + ".moved") == 0)
        #expect(!watch.undisturbed())
    }

    @Test func aSymbolicLinkOnThePathMakesNoWatch() throws {
        let target = temporaryDirectory()
        let link = temporaryDirectory() + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(mkdir(target + "/state", 0o700) == 0)
        #expect(JournalWatch(directory: link + "/state", fileName: "journal.jsonl") == nil)
        #expect(JournalWatch(directory: "relative/state", fileName: "journal.jsonl") == nil)
    }
}

/// The watches of a process share one inotify instance: a user may have only 128 of them.
struct InotifyHubTests {
    @Test func moreWatchesThanAUserMayHaveInstancesShareOneDescriptor() throws {
        let hub = InotifyHub()
        let directory = temporaryDirectory()
        let watches = (0..<200).map { _ in JournalWatch(directory: directory, fileName: "journal.jsonl", hub: hub) }
        #expect(watches.allSatisfy { $0 != nil })
        #expect(FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data()))
        #expect(unlink(directory + "/journal.jsonl") == 0)
        // The event reaches every watch of the journal, whichever reads the descriptor first.
        #expect(watches.allSatisfy { $0?.undisturbed() == false })
        #expect(watches.allSatisfy { $0?.undisturbed() == true })
    }

    @Test func aWatchOfAnotherDirectoryIsNotDisturbedByThisOnesJournal() throws {
        let hub = InotifyHub()
        let first = temporaryDirectory()
        let second = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: first + "/journal.jsonl", contents: Data()))
        let watchOfFirst = try #require(JournalWatch(directory: first, fileName: "journal.jsonl", hub: hub))
        let watchOfSecond = try #require(JournalWatch(directory: second, fileName: "journal.jsonl", hub: hub))
        #expect(unlink(first + "/journal.jsonl") == 0)
        #expect(watchOfSecond.undisturbed())
        #expect(!watchOfFirst.undisturbed())
    }

    @Test func aDeletedStateDirectoryLeavesItsWatchDisturbedForGood() throws {
        let hub = InotifyHub()
        let directory = temporaryDirectory()
        let watch = try #require(JournalWatch(directory: directory, fileName: "journal.jsonl", hub: hub))
        #expect(rmdir(directory) == 0)
        #expect(!watch.undisturbed())
        #expect(!watch.undisturbed())
    }
}
