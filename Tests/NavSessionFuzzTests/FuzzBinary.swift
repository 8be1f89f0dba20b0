import DBusTestSupport
import Foundation
import Testing

/// The built `navsession-fuzz`, run as a child process with a deadline.
enum FuzzBinary {
    /// The fuzzer next to this test binary (the package's build products), else in `.build/debug`.
    static func url() throws -> URL { try BuiltProduct.require("navsession-fuzz") }

    /// Runs `calls` calls from `seed` and records an issue with the fuzzer's report unless it exits 0.
    /// Returns the fuzzer's standard output.
    @discardableResult
    static func pass(seed: UInt64, calls: Int, deadline: Duration, arguments: [String] = []) async throws -> String {
        let started = ContinuousClock.now
        // Killed with what it started after the deadline: the fuzzer's private bus dies with it, and the daemon
        // exits when its bus goes away.
        let result = try await ToolRunner.run(
            try url().path, ["--seed", String(seed), "--calls", String(calls)] + arguments, environment: [:],
            timeout: deadline)
        let report = result.stdout + result.stderr
        let elapsed = ContinuousClock.now - started
        let line = (["navsession-fuzz", "--seed", String(seed), "--calls", String(calls)] + arguments).joined(separator: " ")
        #expect(result.stdout.hasPrefix("seed=\(seed)\n"), "the fuzzer prints its seed first")
        if result.timedOut {
            Issue.record("\(line) did not finish within \(deadline); output:\n\(report)")
        } else if result.status != 0 {
            Issue.record("\(line) exited \(result.status) after \(elapsed):\n\(report)")
        }
        return result.stdout
    }
}
