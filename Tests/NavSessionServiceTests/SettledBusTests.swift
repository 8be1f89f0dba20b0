import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import NavSessionTesting
import Testing

/// `ReportSettled` → `Settled` through the bus, on the demo manifest.
@Suite(.serialized) struct SettledBusTests {
    @Test func reportSettledWithGdbusAnnouncesTheVersionOnceAndSetsTheProperties() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            let settled = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Settled")
            let first = try await fixture.gdbus(window, "ReportSettled", [String(version)])
            #expect(first.status == 0, "\(first)")
            let again = try await fixture.gdbus(window, "ReportSettled", [String(version)])
            #expect(again.status == 0, "a second report of the same version is a no-op: \(again)")
            let older = try await fixture.gdbus(window, "ReportSettled", [String(version - 1)])
            #expect(older.status == 0, "\(older)")
            let next = try #require(try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])]).first?.uint64)
            _ = try await fixture.gdbus(window, "ReportSettled", [String(next)])
            // Two signals: the repeated and the older report sent none in between.
            let signals = try await take(2, of: settled)
            #expect(signals.map { $0.arguments.first?.uint64 } == [version, next])
            #expect(try await fixture.windowProperty(window, "SettledVersion") == .uint64(next))
        }
    }

    @Test func reportSettledOfAVersionNotReachedIsVersionMismatchNamingBoth() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.version(window)
            let result = try await fixture.dbusSend(window, "ReportSettled", ["uint64:\(version + 5)"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.VersionMismatch"), "\(result)")
            #expect(result.stderr.contains("at version \(version)") && result.stderr.contains("version \(version + 5)"), "\(result)")
            #expect(try await fixture.windowProperty(window, "SettledVersion") == .uint64(0))
        }
    }

    @Test func waitSettledReturnsOnceARendererReportsTheVersion() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            let client = try await fixture.connectClient()
            let proxy = try client.window(window)
            async let waited = client.waitSettled(proxy, version: version, timeout: Liveness.bound(.seconds(20)))
            // Reported before or after the wait subscribes: it reads SettledVersion after subscribing.
            _ = try await fixture.window(window, "ReportSettled", [.uint64(version)])
            #expect(try await waited == version)
            await client.close()
        }
    }

    @Test func waitSettledWithNoRendererEndsWithATimeoutSayingSo() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let client = try await fixture.connectClient()
            let proxy = try client.window(window)
            do throws(NavSessionError) {
                _ = try await client.waitSettled(proxy, timeout: .milliseconds(300))
                Issue.record("waitSettled returned with no renderer")
            } catch {
                guard case .settleTimedOut(let message) = error else { throw error }
                #expect(message.contains("no renderer follows"), "\(message)")
            }
            await client.close()
        }
    }

    @Test func aRendererLeavingTheBusClearsSettledBy() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let renderer = try await fixture.connectClient()
            let proxy = try renderer.window(window)
            try await proxy.reportSettled(try await proxy.version)
            #expect(try await fixture.windowProperty(window, "SettledBy").string?.isEmpty == false)
            let changes = try await fixture.signals(
                path: window, interface: .properties, member: "PropertiesChanged")
            await renderer.close()
            _ = try await first(changes, timeout: .seconds(10)) { signal in
                signal.arguments.count >= 2 && signal.arguments[1].keyedEntries["SettledBy"] == .string("")
            }
        }
    }
}
