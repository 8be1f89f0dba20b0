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

    /// The same calls on the floor and on the daemon (the benchmark's setup: the demo's main window, logged in,
    /// one push/pop pair done) show the same signals in `dbus-monitor` — members, properties, their order, JSON
    /// keys and texts, numbers aside — and write journal lines of the same shape: the ratios compare like with like.
    @Test func theFloorSignalsAndJournalsWhatTheDaemonDoesForTheSameCalls() async throws {
        try await Floor.with { floor in
            let daemonBus = try await PrivateBus.start()
            defer { daemonBus.stop() }
            let state = NSTemporaryDirectory() + "floor-daemon-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: state) }
            let daemon = try await Self.startDaemon(on: daemonBus, state: state)
            defer { daemon.signal(SIGKILL) }
            let demo = "org.navsession.Demo"
            let opened = try await daemonBus.run(
                "dbus-send", ["--session", "--print-reply=literal", "--dest=\(demo)", "/org/navsession/Session1",
                              "org.navsession.Session1.OpenWindow", "string:main", "dict:string:string:"])
            #expect(opened.stdout.contains(Self.window), "\(opened)")
            _ = try await daemonBus.run(
                "dbus-send", ["--session", "--print-reply", "--dest=\(demo)", Self.window,
                              "org.navsession.Window1.SwitchModel", "string:main", "dict:string:string:"])
            var outputs: [[String]] = []
            for (bus, name) in [(daemonBus, demo), (floor.bus, Self.name)] {
                func call(_ member: String, _ arguments: [String]) async throws {
                    let result = try await bus.run(
                        "dbus-send", ["--session", "--print-reply", "--dest=\(name)", Self.window, "org.navsession.Window1." + member] + arguments)
                    try #require(result.status == 0, "\(name) \(member): \(result)")
                }
                try await call("StackAppend", ["string:detail", "dict:string:string:id,abc"])
                try await call("StackDropLast", ["uint32:1"])
                let monitor = try #require(try await BusMonitor.start(
                    address: bus.address, bodies: true, rules: ["type='signal',path='\(Self.window)'"]))
                for id in ["abc", "xyz"] {
                    try await call("StackAppend", ["string:detail", "dict:string:string:id,\(id)"])
                    try await call("StackDropLast", ["uint32:1"])
                }
                // The end: a signal of the test's own, after everything the calls caused.
                _ = try await bus.run("dbus-send", ["--session", "--type=signal", Self.window, "org.example.Test.End"])
                var lines: [String] = []
                for await line in monitor.lines {
                    guard let text = line.first, !text.hasSuffix("member=End") else { break }
                    lines.append(text)
                }
                monitor.stop()
                outputs.append(Self.normalized(lines))
            }
            #expect(outputs[0].count > 20, "\(outputs[0])")
            #expect(outputs[0] == outputs[1], "daemon:\n\(outputs[0].joined(separator: "\n"))\nfloor:\n\(outputs[1].joined(separator: "\n"))")
            let journals = try [state + "/journal.jsonl", floor.state + "/journal.jsonl"].map { path in
                let text = try String(contentsOfFile: path, encoding: .utf8)
                return Self.normalized(text.split(separator: "\n").suffix(4).map(String.init))
            }
            #expect(journals[0] == journals[1], "daemon: \(journals[0])\nfloor: \(journals[1])")
            #expect(journals[0].allSatisfy { $0.hasSuffix(#","time":N}"#) }, "\(journals[0])")
        }
    }

    /// `dbus-monitor` lines without what differs between two services (times, senders, serials, unique names) and
    /// with every number written `N`; the monitor's own `NameLost` left out.
    static func normalized(_ lines: [String]) -> [String] {
        var result: [String] = []
        // Up to the first header: the rest of the monitor's own NameLost (its header was the start sign).
        var skipping = true
        for line in lines {
            if line.hasPrefix("signal ") {
                skipping = line.hasSuffix("member=NameLost")
                if !skipping, let path = line.range(of: "path=") { result.append("signal " + line[path.lowerBound...]) }
                continue
            }
            guard !skipping else { continue }
            result.append(line.trimmingCharacters(in: .whitespaces).replacing(#/[0-9]+/#, with: "N"))
        }
        return result
    }

    /// The debug daemon on `bus` with the demo manifest and `state` as its state directory, once it owns its name.
    static func startDaemon(on bus: PrivateBus, state: String) async throws -> ChildProcess {
        let client = try await bus.connect()
        let owners = try await client.signals(matching: MatchRule(
            sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"),
            arguments: [0: "org.navsession.Demo"]))
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let process = try ChildProcess.spawn(
            [try BuiltProduct.require("navsessiond").path, "--bus", bus.address, "--state-dir", state],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], stdout: null, stderr: null)
        let served = await owners.first(within: Liveness.bound(.seconds(30))) { $0.arguments.count == 3 && $0.arguments[2].string != "" }
        await client.close()
        try #require(served != nil, "the daemon did not take org.navsession.Demo")
        return process
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
