import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Any trace the daemon exports replays identically on a fresh daemon (Docs/persistence.md, "Traces"): random
/// sessions of pushes, pops, tabs, sheets, params, forward, marks of two clients (one of which leaves), scheduled
/// batches (run by the clock, early with `RunScheduled`, failing at their deadline) and a guard provider answering
/// at random, recorded, exported and replayed with `navsessionctl trace replay`.
@Suite struct TraceReplayPropertyTests {
    /// A small deterministic generator (the seed names the session).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func batch(_ json: String) -> Value { .string(json) }

    /// Records one random session on `fixture` and returns window 1's exported trace.
    func record(seed: UInt64, on fixture: DaemonFixture) async throws -> String {
        var random = Generator(state: seed)
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        let other = try await Bus.connect(.address(fixture.address))
        let provider = try await TestGuardProvider.start(fixture, .random(seed: seed))
        func call(_ bus: Bus?, _ member: String, _ arguments: [Value] = []) async {
            do {
                if let bus {
                    _ = try await bus.call(
                        destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
                        interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName(member),
                        arguments: arguments, timeout: Liveness.bound(.seconds(30)))
                } else {
                    _ = try await fixture.window(window, member, arguments)
                }
            } catch {
                // A refused change is part of the session (it is not recorded).
            }
        }
        func apply(_ bus: Bus?, _ json: String) async { await call(bus, "Apply", [.string(json), .noParams]) }
        // Always: another client's mark, a batch the clock runs, one that fails at its deadline, one run early.
        await call(other, "Protect", [.uint64(0), .string("theirs"), .string("")])
        await apply(nil, #"[{"command":"schedule","afterMs":0,"commands":[{"command":"stackAppend","models":[{"screen":"about"}]}]}]"#)
        await apply(nil, #"[{"command":"schedule","id":"never","afterMs":50,"commands":[{"command":"dismiss"}]}]"#)
        await apply(nil, #"[{"command":"schedule","id":"early","afterMs":600000,"commands":[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"0"}}]}]}]"#)
        await call(nil, "RunScheduled", [.string("early")])
        for _ in 0..<40 {
            guard try await fixture.version(window) < 50 else { break }
            let id = String(random.next(5))
            switch random.next(15) {
            case 0, 1: await apply(nil, #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"\#(id)"}}]}]"#)
            case 2: await apply(nil, #"[{"command":"stackAppend","models":[{"screen":"profile"}]}]"#)
            case 3, 4: await call(nil, "GoBack")
            case 5: await call(nil, "TabsSelectItem", [.string(random.next(2) == 0 ? "home" : "settings")])
            case 6: await apply(nil, #"[{"command":"present","presentation":{"kind":"sheet","model":{"screen":"about"}}}]"#)
            case 7: await call(nil, "Dismiss")
            case 8: await call(random.next(2) == 0 ? nil : other, "Protect", [.uint64(0), .string("draft \(id)"), .string("")])
            case 9: await call(random.next(2) == 0 ? nil : other, "Unprotect", [.uint64(0)])
            case 10:
                let commands = [
                    #"{"command":"stackAppend","models":[{"screen":"about"}]}"#, #"{"command":"goBack"}"#,
                    #"{"command":"protect","reason":"later"}"#, #"{"command":"setParams","params":{"k":"\#(id)"}}"#,
                ][random.next(4)]
                await apply(nil, #"[{"command":"schedule","afterMs":\#(random.next(150)),"commands":[\#(commands)]}]"#)
            case 11: await apply(nil, #"[{"command":"setParams","params":{"k":"\#(id)"}}]"#)
            case 12: await apply(nil, #"[{"command":"pushParams","params":{"p":"\#(id)"}}]"#)
            case 13: await call(nil, "GoForward")
            default: await call(nil, "PopTo", [.string("detail"), .params(["id": id]), .boolean(false)])
            }
        }
        // What still waits runs now (or its deadline beat us: UnknownScheduled), so the trace ends settled.
        let state = try JSONSerialization.jsonObject(with: Data(try await fixture.window(window, "GetState").first?.string?.utf8 ?? "{}".utf8))
        for entry in ((state as? [String: Any])?["scheduled"] as? [[String: Any]]) ?? [] {
            if let id = entry["id"] as? String { await call(nil, "RunScheduled", [.string(id)]) }
        }
        await provider.stop()
        // The other client leaves: its marks go, one change.
        await other.close()
        let left = try await fixture.signals(path: window, interface: .properties, member: "PropertiesChanged")
        if try await fixture.windowProperty(window, "Protected").string?.contains("theirs") == true {
            _ = await left.first(within: Liveness.bound(.seconds(30))) { signal in
                signal.arguments.count >= 2 && signal.arguments[1].keyedEntries["Protected"]?.string?.contains("theirs") == false
            }
        }
        return try #require(try await fixture.window(window, "ExportTrace").first?.string)
    }

    @Test(arguments: [UInt64(11), 23, 47, 95])
    func aRandomSessionWithMarksSchedulesAndAGuardReplaysIdentically(seed: UInt64) async throws {
        var trace = ""
        try await DaemonFixture.with(state: .inMemory) { fixture in trace = try await record(seed: seed, on: fixture) }
        #expect(trace.contains(#""scheduled":"#), "the session ran a scheduled batch")
        #expect(trace.contains(#""protection":"#), "the session made a mark")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("navtrace-\(UUID().uuidString).json")
        try trace.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await DaemonFixture.with(state: .inMemory) { fresh in
            let result = try await ToolRunner.run(
                try BuiltProduct.require("navsessionctl").path, ["trace", "replay", file.path],
                environment: ["DBUS_SESSION_BUS_ADDRESS": fresh.address, "PATH": "/usr/bin:/bin"], timeout: .seconds(120))
            #expect(result.status == 0, "seed \(seed): \(result)")
            #expect(result.stdout.contains("identical: 1 window"), "\(result)")
            // A session of some length: the random steps made changes beyond the fixed ones.
            let changes = result.stdout.split(separator: " ").dropLast().last.flatMap { Int($0) } ?? 0
            #expect(changes >= 15, "seed \(seed): only \(changes) changes: \(result.stdout)")
        }
    }
}
