import DBusTestSupport
import Foundation
import Testing

/// A reduced run of `navsession-load` (the full figures are run by hand in release: Docs/load-and-faults.md).
@Suite(.serialized) struct LoadRunTests {
    static func binary() throws -> String {
        let running = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("navsession-load").path,
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/navsession-load").path,
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) }, "no navsession-load binary")
    }

    /// Runs navsession-load with `arguments`, bounded; returns its exit status and stdout.
    ///
    /// The waits run on a thread of their own (`exited(within:)`): a run takes seconds, and a test blocking a
    /// thread of the 2-core cooperative pool that long stalls every other test's tasks meanwhile (seen as
    /// ~10 s stalls and, once, a 25 s reply timeout in an unrelated suite).
    static func run(_ arguments: [String], within timeout: Duration = .seconds(90)) async throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory
        let out = directory.appendingPathComponent("navsession-load-\(UUID().uuidString).out")
        let err = directory.appendingPathComponent("navsession-load-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if await !process.exited(within: timeout) {
            // SIGINT: the coordinator kills its clients and daemon before exiting.
            kill(process.processIdentifier, SIGINT)
            _ = await process.exited(within: .seconds(10))
            Issue.record("navsession-load \(arguments) did not finish within \(timeout)")
        }
        return (
            process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
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

    /// The negative control: a daemon that loses journaled changes must make the fault run fail.
    @Test func injectedLossIsDetected() async throws {
        let (status, output, log) = try await Self.run(["fault", "--kills", "10", "--clients", "4", "--inject-loss"])
        #expect(status == 1, "\(output)\n\(log)")
        #expect(log.contains("inject-loss: dropped"), "nothing was dropped: \(log)")
        #expect(output.contains("result: FAIL"), "\(output)")
        #expect(!output.contains("lost changes: 0 (signalled changes lost: 0"), "\(output)")
    }
}
