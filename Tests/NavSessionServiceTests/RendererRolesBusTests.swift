import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Renderer roles on the bus (Window1 `RegisterRenderer`, `Steps`, `Renderers`): two renderers with different
/// capabilities receive different steps for one `GoBackToRoot` and the same final state; a mirror's report is
/// refused; each renderer's settled version is its own; a renderer is gone with its connection.
@Suite struct RendererRolesBusTests {
    /// A second connection registered as a renderer of `window`, with its `Steps` signals.
    struct Renderer {
        let bus: Bus
        let id: String
        let steps: AsyncStream<Signal>
    }

    func register(_ fixture: DaemonFixture, _ window: String, _ role: String, _ capabilities: String) async throws -> Renderer {
        let bus = try await Bus.connect(.address(fixture.address))
        let steps = try await bus.signals(matching: MatchRule(
            path: try ObjectPath(window), interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("Steps")))
        let reply = try await bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
            interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("RegisterRenderer"),
            arguments: [.string(role), .string(capabilities)])
        return Renderer(bus: bus, id: try #require(reply.first?.string), steps: steps)
    }

    func call(_ renderer: Renderer, _ window: String, _ member: String, _ arguments: [Value]) async throws -> [Value] {
        try await renderer.bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
            interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName(member), arguments: arguments)
    }

    @Test func twoRenderersGetTheirOwnStepsAndOnlyThePrimaryReports() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.logIn(window)
            let primary = try await register(fixture, window, "primary", #"{"multiDismiss":true,"pushesInOne":true}"#)
            let mirror = try await register(fixture, window, "mirror", #"{"multiDismiss":false,"pushesInOne":false}"#)
            #expect(primary.id != mirror.id)
            // Three sheets, one on another, then back to the root: one change.
            for _ in 0..<3 {
                _ = try await fixture.window(window, "Present", [.string("sheet"), .string("detail"), .params(["id": "1"])])
            }
            let version = try #require(try await fixture.window(window, "GoBackToRoot").first?.uint64)
            func stepsOf(_ renderer: Renderer) async throws -> [[String: Any]] {
                let signal = try await first(renderer.steps, timeout: .seconds(10)) { $0.arguments.first?.uint64 == version }
                #expect(signal.arguments[2] == .string(renderer.id))
                return try #require(try JSONSerialization.jsonObject(with: Data((signal.arguments[1].string ?? "").utf8)) as? [[String: Any]])
            }
            let inOne = try await stepsOf(primary)
            let oneByOne = try await stepsOf(mirror)
            #expect(inOne.filter { $0["kind"] as? String == "dismiss" }.count == 1, "\(inOne)")
            #expect(oneByOne.filter { $0["kind"] as? String == "dismiss" }.count == 3, "\(oneByOne)")
            // The same final state for both: there is one window.
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            // The mirror may not report what the user did; the primary may.
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "2"])])
            let stack = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            do {
                _ = try await call(mirror, window, "ReportPopped", [.uint64(0), .uint32(1)])
                Issue.record("a mirror's report was accepted")
            } catch let error as BusError {
                #expect(error.name.rawValue == "org.freedesktop.DBus.Error.AccessDenied", "\(error)")
            }
            _ = stack
            // Settled per renderer.
            let now = try #require(try await fixture.windowProperty(window, "Version").uint64)
            _ = try await call(mirror, window, "ReportSettled", [.uint64(now)])
            let renderers = try #require(try await fixture.windowProperty(window, "Renderers").string)
            let list = try #require(try JSONSerialization.jsonObject(with: Data(renderers.utf8)) as? [[String: Any]])
            #expect(list.first { $0["id"] as? String == mirror.id }?["settled"] as? Int == Int(now), "\(list)")
            #expect(list.first { $0["id"] as? String == primary.id }?["settled"] as? Int == 0, "\(list)")
            // navsessionctl waits for one renderer, or for all (the primary has not settled: it times out saying so).
            let ctl = try BuiltProduct.require("navsessionctl").path
            let one = try await fixture.run(ctl, ["wait", "--settled", "--renderer", mirror.id, "--version", "\(now)", window])
            #expect(one.status == 0 && one.stdout.contains("\(now)"), "\(one)")
            let all = try await fixture.run(ctl, ["wait", "--settled", "--all-renderers", "--timeout", "1", window])
            #expect(all.status == 1 && all.stderr.contains(primary.id), "\(all)")
            // A second primary is refused; the mirror leaves with its connection.
            let other = try await Bus.connect(.address(fixture.address))
            do {
                _ = try await other.call(
                    destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
                    interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("RegisterRenderer"),
                    arguments: [.string("primary"), .string("")])
                Issue.record("a second primary was accepted")
            } catch let error as BusError {
                #expect(error.name.rawValue == "org.freedesktop.DBus.Error.AccessDenied", "\(error)")
            }
            let properties = try await fixture.signals(
                path: window, interface: try InterfaceName("org.freedesktop.DBus.Properties"), member: "PropertiesChanged")
            await mirror.bus.close()
            let gone = try await first(properties, timeout: .seconds(20)) { signal in
                signal.arguments[1].keyedEntries["Renderers"].map { !"\($0)".contains(mirror.id) } ?? false
            }
            #expect(gone.arguments[1].keyedEntries["Renderers"] != nil)
        }
    }
}
