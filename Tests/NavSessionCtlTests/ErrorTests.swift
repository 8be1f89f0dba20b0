import DBusTestSupport
import Testing

/// Failures: one line on stderr with the D-Bus error name, exit status 1.
@Suite(.timeLimit(.minutes(2)))
struct ErrorTests {
    /// Checks the one-line shape and returns the line.
    static func oneLine(_ result: CtlResult, startingWith prefix: String) -> String {
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasSuffix("\n") && result.stderr.dropLast().allSatisfy { $0 != "\n" }, "\(result)")
        #expect(result.stderr.hasPrefix(prefix), "\(result)")
        return result.stderr
    }

    @Test func navigationErrorsCarryTheirName() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("waiting")
            let result = try await daemon.ctl(["exec", window, "stack-drop-last"])
            _ = Self.oneLine(result, startingWith: "navsessionctl: org.navsession.Error.")
            let tabs = try await daemon.ctl(["exec", window, "tabs-select-item", "nowhere"])
            _ = Self.oneLine(tabs, startingWith: "navsessionctl: org.navsession.Error.NoTabs")
        }
    }

    @Test func unknownWindowIsUnknownObject() async throws {
        try await DaemonFixture.with { daemon in
            for command in [["state", "99"], ["exec", "99", "dismiss"], ["dismiss-window", "99"], ["graph", "--dot", "99"]] {
                let result = try await daemon.ctl(command)
                _ = Self.oneLine(result, startingWith: "navsessionctl: org.freedesktop.DBus.Error.UnknownObject")
            }
        }
    }

    @Test func unknownSceneAndBadBatch() async throws {
        try await DaemonFixture.with { daemon in
            let scene = try await daemon.ctl(["open-window", "nowhere"])
            _ = Self.oneLine(scene, startingWith: "navsessionctl: org.navsession.Error.UnknownScene")
            let window = try await daemon.openWindow("waiting")
            let batch = try await daemon.ctl(["exec", window, "apply", "[{\"command\":\"teleport\"}]"])
            _ = Self.oneLine(batch, startingWith: "navsessionctl: org.navsession.Error.InvalidBatch")
        }
    }

    @Test func noDaemonOnTheBus() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let result = try await Ctl.run(["list", "--bus", bus.address])
        let line = Self.oneLine(result, startingWith: "navsessionctl: org.freedesktop.DBus.Error.ServiceUnknown")
        #expect(line.contains("no daemon owns org.navsession.Demo"))
        let watch = try await Ctl.run(["watch", "--bus", bus.address])
        _ = Self.oneLine(watch, startingWith: "navsessionctl: org.freedesktop.DBus.Error.NameHasNoOwner")
    }

    @Test func unreachableBus() async throws {
        let result = try await Ctl.run(["list", "--bus", "unix:path=/nonexistent/navsessionctl-bus"])
        _ = Self.oneLine(result, startingWith: "navsessionctl: cannot connect to the bus: ")
    }
}
