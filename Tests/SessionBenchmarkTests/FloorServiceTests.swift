import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// The same-contract floor (Benchmarks/floor/floor-service.c) must write what navsessiond writes: whole JSON journal
/// lines and snapshots, and `Changed` causes that are the batch it applied. A floor that wrote less would flatter
/// every ratio.
@Suite(.serialized) struct FloorServiceTests {
    static let name = "org.navsession.BenchFloor"
    static let window = "/org/navsession/Session1/window/1"

    /// A private bus with the floor compiled and serving on it; `state` is its state directory.
    struct Floor {
        let bus: PrivateBus
        let process: ChildProcess
        let state: String

        static func start() async throws -> Floor {
            let directory = NSTemporaryDirectory() + "floor-tests-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let binary = directory + "/floor-service"
            let source = PrivateBus.repositoryRoot.appendingPathComponent("Benchmarks/floor/floor-service.c").path
            let flags = try await ToolRunner.run(
                "pkg-config", ["--cflags", "--libs", "dbus-1"], environment: [:], timeout: Liveness.bound(.seconds(20)))
            // -Werror: the benchmark compiles it with -Wall -Wextra, and a warning there is a bug here.
            let compiled = try await ToolRunner.run(
                "cc",
                ["-Wall", "-Wextra", "-Werror", "-O2", "-o", binary, source]
                    + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init),
                environment: [:], timeout: .seconds(120))
            try #require(compiled.status == 0, "\(compiled)")
            let bus = try await PrivateBus.start()
            let client = try await bus.connect()
            // Subscribed before the floor starts, so its NameOwnerChanged cannot be missed (no polling).
            let owners = try await client.signals(matching: MatchRule(
                sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"), arguments: [0: name]))
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            defer { if null >= 0 { close(null) } }
            let process = try ChildProcess.spawn(
                [binary, name, directory + "/state"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                stdout: null, stderr: null)
            let served = await owners.first(within: Liveness.bound(.seconds(20))) { $0.arguments.count == 3 && $0.arguments[2].string != "" }
            await client.close()
            try #require(served != nil, "the floor did not take \(name)")
            return Floor(bus: bus, process: process, state: directory + "/state")
        }

        func call(_ path: String, _ member: String, _ arguments: [String]) async throws {
            let result = try await bus.run(
                "dbus-send", ["--session", "--print-reply", "--dest=\(FloorServiceTests.name)", path, member] + arguments)
            try #require(result.status == 0, "\(result)")
        }

        func stop() async {
            await process.terminate(within: .seconds(10))
            bus.stop()
        }

        /// Starts the floor, runs `body`, and stops it whether `body` throws or not.
        static func with(_ body: (Floor) async throws -> Void) async throws {
            let floor = try await start()
            do {
                try await body(floor)
            } catch {
                await floor.stop()
                throw error
            }
            await floor.stop()
        }
    }

    @Test func openURLAnnouncesTheWholeBatchAsItsCause() async throws {
        try await Floor.with { floor in
            let client = try await floor.bus.connect()
            let changed = try await client.signals(matching: MatchRule(
                path: try ObjectPath(Self.window), interface: try InterfaceName("org.navsession.Window1"),
                member: try MemberName("Changed")))
            try await floor.call(
                "/org/navsession/Session1", "org.navsession.Session1.OpenURL", ["string:navsession-demo://detail/42"])
            let signal = try #require(await changed.first(within: Liveness.bound(.seconds(20))))
            #expect(signal.arguments[2] == .string(
                #"{"commands":[{"command":"stackAppend","from":1,"models":[{"kind":"screen","params":{"id":"42"},"screen":"detail"}]}]}"#))
            await client.close()
        }
    }

    @Test func journalAndSnapshotAreWholeJSONAfterACompaction() async throws {
        try await Floor.with { floor in
            // 300 changes: past the 256 lines after which the journal is compacted into a snapshot.
            for id in 1...150 {
                try await floor.call(Self.window, "org.navsession.Window1.StackAppend", ["string:detail", "dict:string:string:id,\(id)"])
                try await floor.call(Self.window, "org.navsession.Window1.StackDropLast", ["uint32:1"])
            }
            try await floor.call(
                "/org/navsession/Session1", "org.navsession.Session1.OpenURL", ["string:navsession-demo://detail/42"])
            for file in ["journal.jsonl", "state.json"] {
                let data = try #require(FileManager.default.contents(atPath: floor.state + "/" + file), "\(file)")
                #expect(!data.contains(0), "\(file) holds a NUL byte")
                for line in data.split(separator: UInt8(ascii: "\n")) {
                    #expect(throws: Never.self, "\(file)") { try JSONSerialization.jsonObject(with: Data(line)) }
                }
            }
        }
    }
}
