import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// A verb that takes a document costs in proportion to the document (and the change it makes), not to its square:
/// eight times the routes or models cost about eight times the CPU of one eighth, and while the daemon works on
/// the largest document another client is answered once it is done. Measured in the daemon's own CPU time
/// (`/proc/PID/stat`), small and large documents interleaved, so load on the machine weighs on both sides;
/// the bound is far from what a cost quadratic in the document gives (×8 per element, here ≤ ×3).
@Suite(.serialized) struct DocumentCostTests {
    /// The daemon's user + system CPU time in clock ticks.
    static func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// `count` routes in the shape that once cost the square of its length: pushes and presentations with
    /// navigation, each presentation's stack taking the pushes after it.
    static func routes(_ count: Int) -> String {
        var routes: [String] = []
        for index in 0..<count {
            if index % 4 == 3 {
                routes.append(#"{"style":"sheet","screen":"editor","params":{"id":"\#(index)"},"withNavigation":true}"#)
            } else {
                routes.append(#"{"style":"push","screen":"detail","params":{"id":"\#(index)"}}"#)
            }
        }
        return "[" + routes.joined(separator: ",") + "]"
    }

    /// CPU ticks of one `SetRoutes` on the logged-in window; then the routes are cleared (not counted).
    static func cost(_ fixture: DaemonFixture, pid: Int32, window: String, _ routes: String) async throws -> Int {
        let before = cpuTicks(pid)
        _ = try await fixture.window(window, "SetRoutes", [.string(routes)])
        let ticks = cpuTicks(pid) - before
        _ = try await fixture.window(window, "SetRoutes", [.string("[]")])
        return ticks
    }

    /// `SetState` of a state as large as the JSON bound allows costs about eight times an eighth of it: the state
    /// is built by `SetRoutes` (pushes and presentations with navigation), read back with `GetState`, and loaded whole.
    @Test func setStateCostsInProportionToItsModels() async throws {
        try await DaemonFixture.with { fixture in
            let pid = try #require(fixture.process?.pid)
            let window = try await fixture.openWindow()
            _ = try await fixture.logIn(window)
            func state(routes count: Int) async throws -> String {
                _ = try await fixture.window(window, "SetRoutes", [.string(Self.routes(count))])
                let text = try #require(try await fixture.window(window, "GetState").first?.string)
                _ = try await fixture.window(window, "SetRoutes", [.string("[]")])
                return text
            }
            let small = try await state(routes: 150), large = try await state(routes: 1_200)
            #expect(large.utf8.count < 256 << 10, "within the JSON bound: \(large.utf8.count) bytes")
            func cost(_ text: String) async throws -> Int {
                let before = Self.cpuTicks(pid)
                _ = try await fixture.window(window, "SetState", [.string(text)])
                return Self.cpuTicks(pid) - before
            }
            var smallTicks = 0
            for _ in 0..<4 { smallTicks += try await cost(small) }
            let largeTicks = try await cost(large)
            for _ in 0..<4 { smallTicks += try await cost(small) }
            #expect(largeTicks <= 3 * max(smallTicks, 10), "1 200 routes' state: \(largeTicks) ticks; 8 × 150: \(smallTicks)")
        }
    }

    @Test func setRoutesCostsInProportionToItsRoutesAndOthersAreAnsweredAfterTheLargest() async throws {
        try await DaemonFixture.with { fixture in
            let pid = try #require(fixture.process?.pid)
            let window = try await fixture.openWindow()
            _ = try await fixture.logIn(window)
            // The largest list the JSON bound allows (3 600 routes, about 230 KB), and an eighth of it.
            let small = Self.routes(450), large = Self.routes(3_600)
            var smallTicks = 0
            for _ in 0..<4 { smallTicks += try await Self.cost(fixture, pid: pid, window: window, small) }
            // The largest while another client asks for something: it is answered.
            let before = Self.cpuTicks(pid)
            async let applied = fixture.window(window, "SetRoutes", [.string(large)])
            let other = try await fixture.run(
                "/usr/bin/gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                                   "--method", "org.freedesktop.DBus.Peer.Ping"], timeout: .seconds(120))
            _ = try await applied
            let largeTicks = Self.cpuTicks(pid) - before
            #expect(other.status == 0, "\(other)")
            _ = try await fixture.window(window, "SetRoutes", [.string("[]")])
            for _ in 0..<4 { smallTicks += try await Self.cost(fixture, pid: pid, window: window, small) }
            // Eight times the routes: at most three times the cost per route (a square would be eight times).
            #expect(largeTicks <= 3 * max(smallTicks, 10), "3 600 routes: \(largeTicks) ticks; 8 × 450: \(smallTicks)")
        }
    }
}
