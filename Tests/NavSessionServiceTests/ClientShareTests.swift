import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Per-client budgets through the bus: one client filling what it may
/// create no longer exhausts the session's content budget for every other client.
@Suite struct ClientShareTests {
    /// A model of about 4 KiB: the largest parameter value a window accepts (`GraphLimits.maxTextBytes`).
    static let present = #"{"command":"present","presentation":{"kind":"sheet","model":{"screen":"detail","params":{"id":""#
        + String(repeating: "7", count: 4000) + #""}}}}"#

    /// `count` presentations, each from the one before (a chain, so no stack limit applies).
    static func batch(_ count: Int) -> String { "[" + Array(repeating: present, count: count).joined(separator: ",") + "]" }

    func call(_ bus: Bus, _ path: String, _ interface: String, _ member: String, _ arguments: [Value]) async throws -> [Value] {
        try await bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(path),
            interface: try InterfaceName(interface), member: try MemberName(member), arguments: arguments,
            timeout: .seconds(30))
    }

    func openWaiting(_ bus: Bus) async throws -> String {
        let reply = try await call(
            bus, DaemonFixture.session, DaemonFixture.sessionInterface, "OpenWindow", [.string("waiting"), .noParams])
        return try #require(reply.first?.objectPath?.rawValue)
    }

    func apply(_ bus: Bus, _ window: String, _ count: Int) async throws {
        _ = try await call(bus, window, DaemonFixture.windowInterface, "Apply", [.string(Self.batch(count)), .noParams])
    }

    /// Grows `window` by large batches, then by single models, until the daemon refuses; returns the refusal.
    func fill(_ bus: Bus, _ window: String) async throws -> BusError {
        var size = 55
        while true {
            do {
                try await apply(bus, window, size)
            } catch let error as BusError {
                try #require(error.name.rawValue == ReliabilityTests.limitsExceeded, "\(error)")
                if size == 1 { return error }
                size = 1
            }
        }
    }

    @Test func oneClientFillingTheContentBudgetLeavesAnotherRoomToOpenWindowsURLsAndPush() async throws {
        try await DaemonFixture.with { fixture in
            let greedy = try await fixture.connect()
            // Windows until the greedy client's share (or, as before per-client budgets, the session's) is full.
            var refusal: BusError?
            for _ in 0..<4 {
                let window = try await openWaiting(greedy)
                let error = try await fill(greedy, window)
                refusal = error
                let message = error.message
                if message.contains("per-client content share") || message.contains("across all windows") { break }
            }
            #expect(refusal?.message.contains("per-client content share") == true, "\(String(describing: refusal))")
            // Another process (shares belong to processes: the test's own connections are one client).
            let opened = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                          "--method", "org.navsession.Session1.OpenWindow", "waiting", "{}"])
            #expect(opened.status == 0, "\(opened)")
            let other = opened.stdout.split(separator: "'").dropFirst().first.map(String.init) ?? ""
            let pushed = try await fixture.gdbus(other, "Apply", [Self.batch(1), "{}"])
            #expect(pushed.status == 0, "\(pushed)")
            let url = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                          "--method", "org.navsession.Session1.OpenURL", "navsession-demo://detail/42"])
            #expect(url.status == 0, "\(url)")
            await greedy.close()
        }
    }
}
