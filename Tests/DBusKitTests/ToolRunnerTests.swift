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
        // A script whose background job outlives it, as the README's tour starts its daemon.
        let started = ContinuousClock.now
        let result = try await ToolRunner.run(
            "bash", ["-c", "sleep 300 & echo $! > '\(pidFile.path)'; sleep 300"], environment: [:], timeout: .seconds(1))
        #expect(result.timedOut)
        #expect(ContinuousClock.now - started < .seconds(30), "the runner waited for the orphaned job")
        let background = try #require(pid_t(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!Self.isRunning(background), "the background job \(background) is still running")
    }

    /// Whether `pid` exists and is not a zombie (a killed orphan stays one until init reaps it).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
}
