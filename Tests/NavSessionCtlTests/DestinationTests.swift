import DBusTestSupport
import Testing

/// `NAVSESSION_DEST` as the default of `--dest`, and the names listed when the daemon's name is absent.
@Suite(.timeLimit(.minutes(2)))
struct DestinationTests {
    @Test func navsessionDestIsTheDefaultDestination() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let fromEnvironment = try await Ctl.run(["list", "--bus", bus.address],
                                                environment: ["NAVSESSION_DEST": "org.example.FromEnv"])
        #expect(fromEnvironment.stderr.contains("no daemon owns org.example.FromEnv"), "\(fromEnvironment)")
        let overridden = try await Ctl.run(["list", "--bus", bus.address, "--dest", "org.example.Flag"],
                                           environment: ["NAVSESSION_DEST": "org.example.FromEnv"])
        #expect(overridden.stderr.contains("no daemon owns org.example.Flag"), "\(overridden)")
    }

    @Test func absentNameListsTheWellKnownNamesThere() async throws {
        try await DaemonFixture.with { daemon in
            let result = try await daemon.ctl(["list", "--dest", "org.navsession.Dmeo"])
            let line = ErrorTests.oneLine(result, startingWith: "navsessionctl: org.freedesktop.DBus.Error.ServiceUnknown")
            #expect(line.contains("no daemon owns org.navsession.Dmeo"), "\(line)")
            #expect(line.contains("well-known names on this bus: org.navsession.Demo"), "\(line)")
            #expect(!line.contains(":1."), "\(line)")
        }
    }
}
