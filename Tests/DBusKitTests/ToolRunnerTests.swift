import DBusTestSupport
import Foundation
import Glibc
import Testing

/// The test harness's tool runner keeps its timeout even for a tool that leaves processes behind.
@Suite(.timeLimit(.minutes(1)))
struct ToolRunnerTests {
    @Test func aTimedOutToolTakesWhatItStartedWithIt() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("toolrunner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        // A script whose background job (one that never ends) outlives it, as the README's tour starts its daemon.
        let started = ContinuousClock.now
        let result = try await ToolRunner.run(
            "bash", ["-c", "tail -f /dev/null & echo $! > '\(pidFile.path)'; wait"], environment: [:], timeout: .seconds(5))
        #expect(result.timedOut)
        // The orphan never ends: a runner that waited for it would not return at all (a liveness bound, not a time).
        #expect(ContinuousClock.now - started < .seconds(300), "the runner waited for the orphaned job")
        let background = try #require(pid_t(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!ProcessTree.isRunning(background), "the background job \(background) is still running")
    }
}
