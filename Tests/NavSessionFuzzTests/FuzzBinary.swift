import DBusTestSupport
import Foundation
import Testing

/// The built `navsession-fuzz`, run as a child process with a deadline.
enum FuzzBinary {
    /// The fuzzer next to this test binary (the package's build products), else in `.build/debug`.
    static func url() throws -> URL {
        let running = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("navsession-fuzz"),
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/navsession-fuzz"),
        ]
        return try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "navsession-fuzz is not built (swift build --product navsession-fuzz)")
    }

    /// Runs `calls` calls from `seed` and records an issue with the fuzzer's report unless it exits 0.
    static func pass(seed: UInt64, calls: Int, deadline: Duration) async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-fuzz-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = try url()
        process.arguments = ["--seed", String(seed), "--calls", String(calls)]
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        let finished = await process.exited(within: deadline)
        if !finished {
            // The fuzzer's private bus dies with it, and the daemon exits when its bus goes away.
            kill(process.processIdentifier, SIGKILL)
            _ = await process.exited(within: .seconds(10))
        }
        try? handle.close()
        let report = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let elapsed = ContinuousClock.now - started
        #expect(report.hasPrefix("seed=\(seed)\n"), "the fuzzer prints its seed first")
        if !finished {
            Issue.record("navsession-fuzz --seed \(seed) --calls \(calls) did not finish within \(deadline); output:\n\(report)")
        } else if process.terminationStatus != 0 {
            Issue.record(
                "navsession-fuzz --seed \(seed) --calls \(calls) exited \(process.terminationStatus) after \(elapsed):\n\(report)")
        }
    }
}
