import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Synchronization
import Testing

/// One client does not stop the daemon serving everyone: while a
/// client that never reads asks for large documents, or floods a broadcast its subscribers never read, another
/// client's small calls are answered. The bound asserted is liveness (every call within
/// ``FairnessTests/answerBound``, ``Liveness/bound(_:)`` of 5 s, where the daemon used to answer no one for
/// minutes); the latencies are measured and printed, never asserted (those on an idle machine are in
/// Docs/reliability.md).
@Suite(.serialized) struct FairnessTests {
    static let answerBound: Duration = Liveness.bound(.seconds(5))

    /// Scenario 1: a 4 MB window, 60 `GetState` calls by a client that never reads the replies.
    @Test func aClientThatNeverReadsLargeRepliesDoesNotStallOthers() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("main")
            let value = String(repeating: "x", count: 4000)
            for id in 0..<1000 {
                _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "\(id)-\(value)"])])
            }
            let before = Self.residentBytes(of: fixture.processID)
            let reader = try await NonReadingClient.start(
                address: fixture.address, destination: DaemonFixture.name, path: window,
                interface: "org.navsession.Window1", member: "GetState", count: 60)
            let measured = await Self.outcome { () async throws -> [Duration] in
                let small = try await fixture.openWindow("waiting")
                return try await Self.smallCalls(20, on: fixture) {
                    _ = try await fixture.window(small, "GetState")
                }
            }
            let after = Self.residentBytes(of: fixture.processID)
            await reader.stop()
            let latencies = try measured.get()
            #expect(after - before < 64 << 20, "the daemon grew from \(before) to \(after) bytes")
            Self.record("scenario 1", latencies)
        }
    }

    /// Scenario 2: four clients flood `SendMessage` with 60 KiB payloads while ten subscribers never read; another
    /// client's calls are measured once the flood is being refused, until 100 have been answered.
    @Test func aMessageFloodIntoSubscribersThatNeverReadDoesNotStallOthers() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("main")
            var subscribers: [NonReadingClient] = []
            for _ in 0..<10 {
                subscribers.append(try await NonReadingClient.start(
                    address: fixture.address, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus.Peer", member: "Ping", count: 0,
                    match: "type='signal',interface='org.navsession.Window1',member='Message'"))
            }
            let payload = Value.params(["blob": String(repeating: "m", count: 60 << 10)])
            let stop = StopFlag()
            let (refusals, refused) = AsyncStream<Void>.makeStream()
            let flooding = Task {
                try await withThrowingTaskGroup(of: (sent: Int, refused: Int).self) { group in
                    for _ in 0..<4 {
                        let bus = try await fixture.connect()
                        group.addTask {
                            var counts = (sent: 0, refused: 0)
                            while !stop.isStopped {
                                do {
                                    _ = try await bus.call(
                                        destination: BusName(DaemonFixture.name), path: ObjectPath(window),
                                        interface: InterfaceName("org.navsession.Window1"), member: MemberName("SendMessage"),
                                        arguments: [.uint64(0), .string("flood"), payload], timeout: .seconds(30))
                                    counts.sent += 1
                                } catch let error as BusError where error.name == .limitsExceeded {
                                    counts.refused += 1
                                    refused.yield()
                                }
                            }
                            await bus.close()
                            return counts
                        }
                    }
                    return try await group.reduce(into: (sent: 0, refused: 0)) { $0.sent += $1.sent; $0.refused += $1.refused }
                }
            }
            // Measured once the flood is being refused: the bus then holds the most it will of ours.
            let measured = await Self.outcome { () async throws -> [Duration] in
                try #require(await refusals.first(within: Liveness.bound(.seconds(60))) != nil, "the flood was never refused")
                let small = try await fixture.openWindow("waiting")
                let latencies = try await Self.smallCalls(100, on: fixture) {
                    _ = try await fixture.window(small, "GetState")
                }
                // Another process's small message goes through: only the flood's senders are refused.
                let message = try await fixture.gdbus(window, "SendMessage", ["0", "hello", "{'from': 'gdbus'}"])
                #expect(message.status == 0, "\(message)")
                return latencies
            }
            stop.stop()
            let counts = await Self.outcome { try await flooding.value }
            for subscriber in subscribers { await subscriber.stop() }
            let latencies = try measured.get()
            let flood = try counts.get()
            #expect(flood.refused > 0, "the flood was never refused: \(flood)")
            Self.record("scenario 2 (\(flood.sent) messages sent, \(flood.refused) refused)", latencies)
        }
    }

    /// Runs `call` `count` times, requiring each to finish within ``answerBound``; the latencies.
    static func smallCalls(
        _ count: Int, on fixture: DaemonFixture, _ call: @escaping @Sendable () async throws -> Void
    ) async throws -> [Duration] {
        var latencies: [Duration] = []
        for index in 0..<count {
            let start = ContinuousClock.now
            let answered = await AsyncStream<Bool>.racing([{ (try? await call()) != nil }]).first(within: answerBound)
            try #require(answered == true, "small call \(index) was not answered within \(answerBound): \(fixture.output.suffix(2000))")
            latencies.append(ContinuousClock.now - start)
        }
        return latencies
    }

    /// `body`'s value or error, so the attackers are stopped before the test fails.
    static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    static func record(_ what: String, _ latencies: [Duration]) {
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print("fairness \(what): \(latencies.count) small calls, median \(sorted[sorted.count / 2]), p99 \(p99), max \(sorted.last ?? .zero)")
    }

    static func residentBytes(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}

/// Tells the tasks a test started to stop (an attacker, a driver).
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    var isStopped: Bool { stopped.load(ordering: .relaxed) }
    func stop() { stopped.store(true, ordering: .relaxed) }
}
