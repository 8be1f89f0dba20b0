import DBusTestSupport
import Synchronization
import Testing

/// The session-bus connection navsessionctl opens while it parses (`EarlyConnection`): used when the command
/// wants the session bus, never in the way when it wants another bus, help, or no bus at all.
@Suite(.timeLimit(.minutes(2)))
struct EarlyConnectionTests {
    @Test func theSessionBusFromTheEnvironmentServesTheCommand() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let result = try await Ctl.run(["routes", window, "--json"],
                                           environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("["), "\(result)")
        }
    }

    @Test func aCommandConnectsOnceWhenItTakesTheEarlyConnection() async throws {
        try await DaemonFixture.with { daemon in
            let monitor = try #require(try await BusMonitor.start(address: daemon.address))
            defer { monitor.stop() }
            let result = try await Ctl.run(["list"], environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
            #expect(result.status == 0, "\(result)")
            // The marker: everything navsessionctl sent was routed before it.
            _ = try await daemon.ctl(["routes", "1"])
            let hellos = Mutex(0)
            let marker = await monitor.lines.first(within: Liveness.bound(.seconds(10))) { line in
                if line.count >= 8, line[0] == "mc", line[7] == "GetRoutes" { return true }
                if line.count >= 8, line[0] == "mc", line[7] == "Hello" { hellos.withLock { $0 += 1 } }
                return false
            }
            #expect(marker != nil)
            // navsessionctl list's one connection; the marker's own Hello precedes its GetRoutes.
            #expect(hellos.withLock { $0 } == 2)
        }
    }

    @Test func anUnreachableSessionBusIsReportedAsWithoutIt() async throws {
        let missing = "unix:path=/nonexistent/navsession-test-bus"
        let fromEnvironment = try await Ctl.run(["list"], environment: ["DBUS_SESSION_BUS_ADDRESS": missing])
        let fromOption = try await Ctl.run(["list", "--bus", missing])
        #expect(fromEnvironment.status == 1, "\(fromEnvironment)")
        #expect(fromEnvironment.stderr.contains("cannot connect to the bus"), "\(fromEnvironment)")
        #expect(fromEnvironment.stderr == fromOption.stderr)
    }

    @Test func anExplicitBusIsUsedWhateverTheEnvironmentSays() async throws {
        try await DaemonFixture.with { daemon in
            let other = try await PrivateBus.start()
            defer { other.stop() }
            let result = try await daemon.ctl(["list"], environment: ["DBUS_SESSION_BUS_ADDRESS": other.address])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func helpNeedsNoBus() async throws {
        let result = try await Ctl.run(["routes", "--help"],
                                       environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("USAGE: navsessionctl routes"), "\(result)")
    }
}
