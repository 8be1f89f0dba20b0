import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Synchronization
import Testing

/// One writer per state directory and a lossless `--replace`: a
/// second daemon on the directory is refused naming the holder, a takeover under load loses no acknowledged
/// change and gives out no version twice, a directory deleted while running is written again in full, and a
/// directory others may write to is refused.
@Suite(.serialized) struct StateDirectoryTests {
    /// Scenario 6, the same bus name: the lock, not the name, stops the second daemon.
    @Test func aSecondDaemonOnTheSameDirectoryIsRefusedNamingTheHolder() async throws {
        try await DaemonFixture.with { fixture in
            let first = try #require(fixture.process)
            let second = try fixture.launch()
            let exit = await second.exit(within: .seconds(30))
            #expect(exit == .exited(1), "\(String(describing: exit)); it wrote:\n\(fixture.output)")
            #expect(fixture.output.contains("is in use by pid \(first.pid)"), "\(fixture.output)")
            #expect(first.isRunning)
        }
    }

    /// Scenario 6, another bus name (`--name`): before the lock, both daemons wrote the directory and one's
    /// acknowledged changes vanished.
    @Test func aSecondDaemonUnderAnotherNameOnTheSameDirectoryIsRefusedAndNothingIsLost() async throws {
        try await DaemonFixture.with { fixture in
            let first = try #require(fixture.process)
            let window = try await fixture.openWindow("main")
            let second = try fixture.launch(["--name", "org.navsession.Other"])
            let exit = await second.exit(within: .seconds(30))
            #expect(exit == .exited(1), "\(String(describing: exit)); it wrote:\n\(fixture.output)")
            #expect(fixture.output.contains("is in use by pid \(first.pid)"), "\(fixture.output)")
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "after"])])
            // Killed, so only what it wrote counts; the next daemon takes the name whenever the bus frees it.
            first.signal(SIGKILL)
            try #require(await first.exit(within: .seconds(30)) != nil)
            try await fixture.relaunch(["--replace"])
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            #expect(state.contains(#""after""#), "\(state)")
        }
    }

    /// Scenario 5: clients change a window while three daemons in turn take the name over with `--replace`.
    /// Every acknowledged push is in the final state and no version was acknowledged twice.
    @Test func replaceUnderLoadLosesNoAcknowledgedChangeAndReusesNoVersion() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("main")
            let running = StopFlag()
            let (progress, reached) = AsyncStream<Int>.makeStream()
            let driver = Task {
                var acknowledged: [(id: Int, version: UInt64)] = []
                var next = 0
                while !running.isStopped {
                    next += 1
                    let reply = try? await fixture.window(
                        window, "StackAppend", [.string("detail"), .params(["id": "\(next)"])])
                    if let version = reply?.first?.uint64 {
                        acknowledged.append((next, version))
                        reached.yield(acknowledged.count)
                    }
                }
                reached.finish()
                return acknowledged
            }
            // Each takeover, and the end, after 20 more acknowledged pushes: every daemon serves under load.
            for round in 1...4 {
                let target = round * 20
                let got = await progress.first(within: Liveness.bound(.seconds(60))) { $0 >= target }
                try #require(got != nil, "the driver did not reach \(target) acknowledged pushes: \(fixture.output)")
                if round < 4 { try await fixture.relaunch(["--replace"]) }
            }
            running.stop()
            let acknowledged = await driver.value
            try #require(acknowledged.count > 3, "the driver got too few replies: \(fixture.output)")
            let versions = acknowledged.map(\.version)
            #expect(Set(versions).count == versions.count, "a version was acknowledged twice: \(versions)")
            #expect(versions == versions.sorted(), "versions went back: \(versions)")
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            let missing = acknowledged.filter { !state.contains(#""id":"\#($0.id)""#) }
            #expect(missing.isEmpty, "acknowledged but lost: \(missing.map(\.id)); log:\n\(fixture.output)")
        }
    }

    /// Scenario 7: the directory is deleted while the daemon runs; the next change writes everything again,
    /// so a kill and restart keep every acknowledged change.
    @Test func aStateDirectoryDeletedWhileRunningIsWrittenAgainInFull() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("main")
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "before"])])
            try FileManager.default.removeItem(atPath: fixture.statePath)
            for id in 0..<20 {
                _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "gone\(id)"])])
            }
            #expect(FileManager.default.fileExists(atPath: fixture.statePath + "/state.json"))
            try await fixture.kill()
            try await fixture.relaunch()
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            for id in ["before"] + (0..<20).map({ "gone\($0)" }) {
                #expect(state.contains(#""id":"\#(id)""#), "\(id) lost: \(state)")
            }
            #expect(fixture.output.contains("removed while running"), "\(fixture.output)")
        }
    }

    /// Scenario 8: an existing directory that others may write to is refused with a line that says why.
    @Test func aWorldWritableStateDirectoryIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("navsession-open-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o777)
        try await DaemonFixture.with(state: .directory(directory), launchesDaemon: false) { fixture in
            let daemon = try fixture.launch()
            let exit = await daemon.exit(within: .seconds(30))
            #expect(exit == .exited(1), "\(String(describing: exit)); it wrote:\n\(fixture.output)")
            #expect(fixture.output.contains("writable by its group or by others (mode 777)"), "\(fixture.output)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/state.json"))
        }
    }
}
