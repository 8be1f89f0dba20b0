import DBusTestSupport
import Foundation
import Testing

/// The bounded CI pass of `navsession-fuzz` (Docs/reliability.md): a fixed seed plus a random one, printed
/// so a failure can be replayed with `navsession-fuzz --seed N --calls 10000`.
@Suite struct FuzzPassTests {
    static func binary() throws -> URL {
        let running = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("navsession-fuzz"),
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/navsession-fuzz"),
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
    }

    @Test(arguments: [UInt64(20_261_122), UInt64.random(in: 1...UInt64(UInt32.max))])
    func tenThousandCallsGetDocumentedRepliesAndTheDaemonStaysUp(seed: UInt64) async throws {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["--calls", "10000", "--seed", String(seed)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(text.split(separator: "\n").prefix(40).joined(separator: "\n"))
        #expect(process.terminationStatus == 0, "navsession-fuzz --seed \(seed) failed:\n\(text.prefix(4000))")
    }
}
