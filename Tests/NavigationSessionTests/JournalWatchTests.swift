import Foundation
import Glibc
import Testing

@testable import NavigationSession

/// A watch of `directory` through the process's hub. The user's inotify instances (128) are shared with every
/// process of the suite — each test bus and daemon holds one —, so the hub may have to wait for one: until it has its
/// descriptor, which it then keeps, this retries (a liveness bound, not a timing).
func journalWatch(_ directory: String, hub: InotifyHub = .shared) async throws -> JournalWatch {
    let deadline = ContinuousClock.now + .seconds(300)
    while true {
        if let watch = JournalWatch(directory: directory, fileName: "journal.jsonl", hub: hub) { return watch }
        guard ContinuousClock.now < deadline else { throw WatchUnavailable() }
        try await Task.sleep(for: .milliseconds(100))
    }
}

struct WatchUnavailable: Error {}

/// The watch that spares the store a lookup of the journal's path before every line: quiet while only the store's
/// own files change, disturbed by anything that moves the journal's path, absent where it could not vouch.
struct JournalWatchTests {
    @Test func theStoresOwnFilesBesideTheJournalLeaveItUndisturbed() async throws {
        let directory = temporaryDirectory()
        let watch = try await journalWatch(directory)
        #expect(FileManager.default.createFile(atPath: directory + "/state.json.tmp", contents: Data("{}".utf8)))
        #expect(rename(directory + "/state.json.tmp", directory + "/state.json") == 0)
        #expect(unlink(directory + "/state.json") == 0)
        #expect(watch.undisturbed())
    }

    @Test func removingTheJournalDisturbsItOnceItsEventIsRead() async throws {
        let directory = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data()))
        let watch = try await journalWatch(directory)
        #expect(unlink(directory + "/journal.jsonl") == 0)
        #expect(!watch.undisturbed())
        #expect(watch.undisturbed())
    }

    @Test func renamingAFileOverTheJournalDisturbsIt() async throws {
        let directory = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data()))
        #expect(FileManager.default.createFile(atPath: directory + "/other", contents: Data()))
        let watch = try await journalWatch(directory)
        #expect(rename(directory + "/other", directory + "/journal.jsonl") == 0)
        #expect(!watch.undisturbed())
    }

    @Test func movingADirectoryAboveTheStateDirectoryDisturbsIt() async throws {
        let parent = temporaryDirectory()
        let directory = parent + "/state"
        #expect(mkdir(directory, 0o700) == 0)
        let watch = try await journalWatch(directory)
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
    @Test func moreWatchesThanAUserMayHaveInstancesShareOneDescriptor() async throws {
        let directory = temporaryDirectory()
        // The first waits for the hub's descriptor; the rest need none of their own.
        let first = try await journalWatch(directory)
        let watches = [first] + (1..<200).map { _ in JournalWatch(directory: directory, fileName: "journal.jsonl") }
        #expect(watches.allSatisfy { $0 != nil })
        #expect(FileManager.default.createFile(atPath: directory + "/journal.jsonl", contents: Data()))
        #expect(unlink(directory + "/journal.jsonl") == 0)
        // The event reaches every watch of the journal, whichever reads the descriptor first.
        #expect(watches.allSatisfy { $0?.undisturbed() == false })
        #expect(watches.allSatisfy { $0?.undisturbed() == true })
    }

    @Test func aWatchOfAnotherDirectoryIsNotDisturbedByThisOnesJournal() async throws {
        let first = temporaryDirectory()
        let second = temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: first + "/journal.jsonl", contents: Data()))
        let watchOfFirst = try await journalWatch(first)
        let watchOfSecond = try await journalWatch(second)
        #expect(unlink(first + "/journal.jsonl") == 0)
        #expect(watchOfSecond.undisturbed())
        #expect(!watchOfFirst.undisturbed())
    }

    @Test func aDeletedStateDirectoryLeavesItsWatchDisturbedForGood() async throws {
        let directory = temporaryDirectory()
        let watch = try await journalWatch(directory)
        #expect(rmdir(directory) == 0)
        #expect(!watch.undisturbed())
        #expect(!watch.undisturbed())
    }
}
