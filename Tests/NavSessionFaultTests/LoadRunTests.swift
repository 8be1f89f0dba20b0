import DBusTestSupport
import Foundation
import Testing

/// A reduced run of `navsession-load` (the full figures are run by hand in release: Docs/load-and-faults.md).
@Suite(.serialized) struct LoadRunTests {
    static func binary() throws -> String { try BuiltProduct.require("navsession-load").path }

    /// Runs navsession-load with `arguments`, bounded (then it and everything it started are killed); returns
    /// its exit status, stdout and stderr. The wait never blocks a thread of the cooperative pool.
    static func run(_ arguments: [String], within timeout: Duration = .seconds(90)) async throws -> (Int32, String, String) {
        let result = try await ToolRunner.run(try binary(), arguments, environment: [:], timeout: timeout)
        if result.timedOut { Issue.record("navsession-load \(arguments) did not finish within \(timeout)") }
        return (result.status, result.stdout, result.stderr)
    }

    @Test func loadWithFourClients() async throws {
        let (status, output, log) = try await Self.run(["--clients", "4", "--commands", "300"])
        #expect(status == 0, "\(output)\n\(log)")
        #expect(output.contains("result: PASS"), "\(output)\n\(log)")
        #expect(output.contains("final states equal to the replay: 6 of 6 windows"), "\(output)")
    }

    @Test func faultsWithFiveKills() async throws {
        let (status, output, log) = try await Self.run(["fault", "--kills", "5", "--clients", "4", "--changes-between-kills", "200"])
        #expect(status == 0, "\(output)\n\(log)")
        #expect(output.contains("kills: 5;"), "\(output)")
        #expect(output.contains("lost changes: 0 "), "\(output)")
        #expect(output.contains("result: PASS"), "\(output)\n\(log)")
    }

    /// Issue "Reliability II", scenario 5: `navsessiond --replace` under load, the running daemon handing over
    /// each time; no acknowledged change is lost and no version acknowledged twice.
    @Test
    func replaceUnderLoadLosesNoAcknowledgedChange() async throws {
        let (status, output, log) = try await Self.run(["fault", "--replaces", "3", "--clients", "4", "--changes-between-kills", "200"])
        #expect(status == 0, "\(output)\n\(log)")
        #expect(output.contains("--replace takeovers: 3;"), "\(output)")
        #expect(output.contains("replaced instances' exit statuses: 0 x3"), "\(output)")
        #expect(output.contains("lost changes: 0 (signalled changes lost: 0, versions reused: 0)"), "\(output)")
        #expect(output.contains("result: PASS"), "\(output)\n\(log)")
    }

    /// Issue "Reliability II", scenario 6: a second daemon on the state directory (for the same bus name, then
    /// with another `--name`) refuses to start, and the running daemon keeps every acknowledged change.
    @Test
    func twoDaemonsOnOneStateDirectoryTheSecondRefusesAndNothingIsLost() async throws {
        let (status, output, log) = try await Self.run(["fault", "--second-daemons", "2", "--clients", "4", "--changes-between-kills", "200"])
        #expect(status == 0, "\(output)\n\(log)")
        #expect(output.contains("second daemons: 2 (1 for the same name, 1 with --name"), "\(output)")
        #expect(output.contains("refused: 2, served: 0"), "\(output)")
        #expect(output.contains("lost changes: 0 (signalled changes lost: 0, versions reused: 0)"), "\(output)")
        #expect(output.contains("result: PASS"), "\(output)\n\(log)")
    }

    /// The negative control: a daemon that loses journaled changes must make the fault run fail.
    @Test func injectedLossIsDetected() async throws {
        let (status, output, log) = try await Self.run(["fault", "--kills", "10", "--clients", "4", "--inject-loss"])
        #expect(status == 1, "\(output)\n\(log)")
        #expect(log.contains("inject-loss: dropped"), "nothing was dropped: \(log)")
        #expect(output.contains("result: FAIL"), "\(output)")
        #expect(!output.contains("lost changes: 0 (signalled changes lost: 0"), "\(output)")
    }
}
