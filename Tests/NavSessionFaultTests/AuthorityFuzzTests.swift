import DBusTestSupport
import Foundation
import Testing

/// `scripts/authority-fuzz` (Docs/testing.md, "Authority fuzz") against the built daemon: four client processes
/// with their own marks, schedules, follows and extremes, random disconnects and SIGKILLs of the daemon; after every
/// step the daemon answers, no client changed what its authority forbids, no share is exceeded and every
/// acknowledged change survived each restart. The fuzzer starts its own private bus and daemon (`--state-dir` in a
/// temporary directory) and removes them; on failure its whole report (seed, step, the last steps, the daemon's
/// log, the line to reproduce it) is the test's failure message. No timing is asserted: only the deadline bounds a
/// run (a healthy pass takes about 15 s in a debug build on an idle 2-core machine).
@Suite(.serialized) struct AuthorityFuzzTests {
    static let fixedSeed: UInt64 = 20_261_204
    static let steps = 4000
    static let killEvery = 150
    static let deadline: Duration = .seconds(300)

    static var script: String { PrivateBus.repositoryRoot.appendingPathComponent("scripts/authority-fuzz").path }

    /// Runs the fuzzer under Debian's interpreter (it needs python3-gi) with the built daemon.
    static func run(_ arguments: [String]) async throws -> (ToolResult, String) {
        let daemon = try BuiltProduct.require("navsessiond").path
        let result = try await ToolRunner.run(
            "/usr/bin/python3", [script, "--daemon", daemon] + arguments, environment: [:], timeout: deadline)
        let line = (["scripts/authority-fuzz"] + arguments).joined(separator: " ")
        if result.timedOut {
            Issue.record("\(line) did not finish within \(deadline); output:\n\(result.stdout)\(result.stderr)")
        }
        return (result, line)
    }

    @Test func aFixedSeedPassKeepsAuthoritySharesAndAcknowledgedChangesAcrossDisconnectsAndKills() async throws {
        let (result, line) = try await Self.run([
            "--seed", String(Self.fixedSeed), "--steps", String(Self.steps), "--kill-every", String(Self.killEvery),
        ])
        let report = result.stdout + result.stderr
        #expect(result.stdout.hasPrefix("seed=\(Self.fixedSeed)\n"), "the fuzzer prints its seed first:\n\(report)")
        #expect(result.status == 0, "\(line) exited \(result.status):\n\(report)")
        #expect(
            result.stdout.contains("authority-fuzz: \(Self.steps) steps, 4 clients, ")
                && result.stdout.contains(" kills, seed \(Self.fixedSeed): ok"),
            "\(line) printed no ok line:\n\(report)")
    }

    /// The negative control: a daemon that forgets its last journaled change before a restart must fail the run
    /// with a durability report.
    @Test func aChangeLostAtARestartFailsTheRun() async throws {
        let (result, line) = try await Self.run([
            "--seed", String(Self.fixedSeed), "--steps", "3000", "--kill-every", "40", "--inject", "loss",
        ])
        let report = result.stdout + result.stderr
        #expect(result.status == 1, "\(line) exited \(result.status):\n\(report)")
        #expect(result.stderr.contains("inject-loss: dropped"), "nothing was dropped:\n\(report)")
        #expect(result.stdout.contains("FAILED at step") && result.stdout.contains(": durability: "), "\(report)")
        #expect(result.stdout.contains("reproduce: scripts/authority-fuzz --seed \(Self.fixedSeed)"), "\(report)")
    }

    /// The negative control of the authority check: a mark that goes in a step of another client than its owner
    /// (here an owner's own `Unprotect`, reported as another client's) must fail the run naming both.
    @Test func aMarkGoneInAnotherClientsStepFailsTheRun() async throws {
        let (result, line) = try await Self.run([
            "--seed", String(Self.fixedSeed), "--steps", "3000", "--inject", "authority",
        ])
        let report = result.stdout + result.stderr
        #expect(result.status == 1, "\(line) exited \(result.status):\n\(report)")
        #expect(result.stdout.contains(": authority: the mark of "), "\(report)")
    }
}
