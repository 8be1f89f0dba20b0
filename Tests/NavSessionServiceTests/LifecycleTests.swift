import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing


@Suite(.serialized) struct ReplaceTests {
    @Test func replaceTakesTheNameAndTheFirstDaemonExitsZeroKeepingState() async throws {
        try await DaemonFixture.with { fixture in
            let original = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "9"])])
            let before = try await fixture.window(window, "GetState")
            let oldOwner = try #require(
                try await fixture.bus.call(
                    destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("GetNameOwner"), arguments: [.string(DaemonFixture.name)]
                ).first?.string)
            let owners = try await fixture.bus.signals(
                matching: MatchRule(
                    sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("NameOwnerChanged"), arguments: [0: DaemonFixture.name]))
            try fixture.launch(["--replace"])
            let handover = try await first(owners, timeout: .seconds(30)) { _ in true }
            #expect(handover.arguments[1] == .string(oldOwner))
            let newOwner = try #require(handover.arguments[2].string)
            #expect(newOwner != "" && newOwner != oldOwner, "\(handover.arguments)")
            let exit = await original.exit(within: .seconds(30))
            #expect(exit == .exited(0), "the replaced daemon's exit; it wrote: \(fixture.output)")
            #expect(try await fixture.window(window, "GetState") == before)
            let next = try await fixture.openWindow("waiting")
            #expect(next == "/org/navsession/Session1/window/2")
        }
    }

    @Test func quitActionReleasesTheNameAndExitsZero() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            _ = try await fixture.openWindow()
            let owners = try await fixture.bus.signals(
                matching: MatchRule(
                    sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("NameOwnerChanged"), arguments: [0: DaemonFixture.name]))
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.ActivateAction", "quit", "[]", "{}"])
            #expect(result.status == 0, "\(result)")
            let released = try await first(owners, timeout: .seconds(30)) { _ in true }
            #expect(released.arguments[2] == .string(""))
            #expect(await process.exit(within: .seconds(30)) == .exited(0))
        }
    }
}

@Suite(.serialized) struct ActivationTests {
    @Test func firstCallAutoStartsTheDaemonThroughItsServiceFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-activation-\(UUID().uuidString)")
        let services = directory.appendingPathComponent("services")
        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("daemon.err")
        // No --bus, and a session address that leads nowhere: the activated daemon must serve the bus that
        // started it, which only DBUS_STARTER_ADDRESS names.
        let service = """
            [D-BUS Service]
            Name=org.navsession.Demo
            Exec=/bin/sh -c 'DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus exec "\(try DaemonFixture.binary().path)" --state-dir "\(state.path)" --log-level info 2>"\(log.path)"'

            """
        try service.write(to: services.appendingPathComponent("org.navsession.Demo.service"), atomically: true, encoding: .utf8)
        let fixture = try await NavSessionTestDaemon.start(
            try DaemonFixture.serviceConfiguration(serviceDirectories: [services.path], launchesDaemon: false))
        var activatedPID: UInt32?
        func cleanUp() async {
            if let activatedPID {
                // The activated daemon is the bus's child, not ours: stop it and wait (bounded) for its name to go.
                let owners = try? await fixture.bus.signals(
                    matching: MatchRule(
                        sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                        member: try MemberName("NameOwnerChanged"), arguments: [0: DaemonFixture.name, 2: ""]))
                kill(pid_t(activatedPID), SIGTERM)
                if let owners { _ = try? await first(owners, timeout: .seconds(10)) { _ in true } }
            }
            try? await fixture.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        do {
            #expect(try await !fixture.bus.nameHasOwner(try BusName(DaemonFixture.name)))
            let result = try await fixture.run(
                "dbus-send", ["--session", "--print-reply=literal", "--dest=org.navsession.Demo", "/org/navsession/Session1",
                              "org.navsession.Session1.ListWindows"], timeout: .seconds(40))
            let daemonLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(result.status == 0, "\(result)\ndaemon stderr: \(daemonLog)")
            #expect(result.stdout.contains("array ["), "\(result)")
            if try await fixture.bus.nameHasOwner(try BusName(DaemonFixture.name)) {
                activatedPID = try await fixture.bus.call(
                    destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("GetConnectionUnixProcessID"), arguments: [.string(DaemonFixture.name)]
                ).first?.uint32
                #expect(activatedPID != nil)
            }
            let window = try await fixture.openWindow()
            #expect(window == "/org/navsession/Session1/window/1")
            #expect(FileManager.default.fileExists(atPath: state.path), "the activated daemon uses --state-dir")
        } catch {
            await cleanUp()
            throw error
        }
        await cleanUp()
    }
}
