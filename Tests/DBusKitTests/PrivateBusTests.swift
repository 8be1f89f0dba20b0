import DBusKit
import DBusTestSupport
import Foundation
import Testing

@Suite struct PrivateBusTests {
    @Test func serviceDirectoriesAreUsedForActivation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dbuskit-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A service whose executable exits at once: activation is attempted (and fails) only if the bus read it.
        try "[D-BUS Service]\nName=org.example.Activatable\nExec=/bin/false\n"
            .write(to: directory.appendingPathComponent("org.example.Activatable.service"), atomically: true, encoding: .utf8)
        let privateBus = try await PrivateBus.start(serviceDirectories: [directory.path])
        let bus = try await privateBus.connect()
        let error = await busError {
            try await bus.call(destination: try BusName("org.example.Activatable"), path: try ObjectPath("/x"),
                               interface: nil, member: try MemberName("Ping"))
        }
        #expect(error?.name.rawValue.hasPrefix("org.freedesktop.DBus.Error.Spawn.") == true, "\(String(describing: error))")
        await bus.close()
        privateBus.stop()
    }

    @Test func stopKillsTheDaemon() async throws {
        let privateBus = try await PrivateBus.start()
        let bus = try await privateBus.connect()
        privateBus.stop()
        #expect(await completes { await bus.disconnected() })
        await #expect(throws: ConnectionError.self) { try await privateBus.connect() }
    }

    @Test func toolsSeeOnlyThePrivateBus() async throws {
        let privateBus = try await PrivateBus.start()
        let result = try await privateBus.run("sh", ["-c", "echo $DBUS_SESSION_BUS_ADDRESS"])
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == privateBus.address)
        privateBus.stop()
    }

    /// `navsessiond --private-bus` starts its bus from the compiled-in text (an installed daemon has no checkout);
    /// the tests start theirs from `dbus/test-session.conf`. One configuration: the two are the same text.
    @Test func theBuiltInSessionConfigurationIsTestSessionConf() throws {
        let file = try String(contentsOfFile: PrivateBus.configFile, encoding: .utf8)
        #expect(PrivateBusDaemon.sessionConfiguration == file)
    }
}
