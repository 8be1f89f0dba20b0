import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// The exit status of `process`, or nil when it is still running after `timeout` (it is then killed).
func exitStatus(of process: Process, within timeout: Duration) async -> Int32? {
    let pid = process.processIdentifier
    return await withTaskGroup(of: Int32?.self) { group in
        group.addTask {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    process.waitUntilExit()
                    continuation.resume()
                }
            }
            return process.terminationStatus
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        if first == nil {
            kill(pid, SIGKILL)
        }
        group.cancelAll()
        await group.waitForAll()
        return first
    }
}

@Suite(.serialized) struct ReplaceTests {
    @Test func replaceTakesTheNameAndTheFirstDaemonExitsZeroKeepingState() async throws {
        let fixture = try await DaemonFixture()
        var second: Process?
        do {
            let original = try await fixture.start()
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "9"])])
            let before = try await fixture.window(window, "GetState")
            let oldOwner = try #require(
                try await fixture.client.call(
                    destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("GetNameOwner"), arguments: [.string(DaemonFixture.name)]
                ).first?.string)
            let owners = try await fixture.client.signals(
                matching: MatchRule(
                    sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("NameOwnerChanged"), arguments: [0: DaemonFixture.name]))
            second = try fixture.launch(["--replace"])
            let handover = try await first(owners, timeout: .seconds(30)) { _ in true }
            #expect(handover.arguments[1] == .string(oldOwner))
            let newOwner = try #require(handover.arguments[2].string)
            #expect(newOwner != "" && newOwner != oldOwner, "\(handover.arguments)")
            let status = await exitStatus(of: original, within: .seconds(30))
            #expect(status == 0, "the replaced daemon's exit status; stderr: \(fixture.stderr)")
            #expect(try await fixture.window(window, "GetState") == before)
            let next = try await fixture.openWindow("waiting")
            #expect(next == "/org/navsession/Session1/window/2")
        } catch {
            if let second, second.isRunning { second.terminate(); second.waitUntilExit() }
            fixture.stop()
            throw error
        }
        if let second, second.isRunning { second.terminate(); second.waitUntilExit() }
        fixture.stop()
    }

    @Test func quitActionReleasesTheNameAndExitsZero() async throws {
        let fixture = try await DaemonFixture()
        do {
            let process = try await fixture.start()
            _ = try await fixture.openWindow()
            let owners = try await fixture.client.signals(
                matching: MatchRule(
                    sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("NameOwnerChanged"), arguments: [0: DaemonFixture.name]))
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.ActivateAction", "quit", "[]", "{}"])
            #expect(result.status == 0, "\(result)")
            let released = try await first(owners, timeout: .seconds(30)) { _ in true }
            #expect(released.arguments[2] == .string(""))
            #expect(await exitStatus(of: process, within: .seconds(30)) == 0)
        } catch {
            fixture.stop()
            throw error
        }
        fixture.stop()
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
        let fixture = try await DaemonFixture(serviceDirectories: [services.path])
        var activatedPID: UInt32?
        func cleanUp() async {
            if let activatedPID {
                // The activated daemon is the bus's child, not ours: stop it and wait (bounded) for its name to go.
                let owners = try? await fixture.client.signals(
                    matching: MatchRule(
                        sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                        member: try MemberName("NameOwnerChanged"), arguments: [0: DaemonFixture.name, 2: ""]))
                kill(pid_t(activatedPID), SIGTERM)
                if let owners { _ = try? await first(owners, timeout: .seconds(10)) { _ in true } }
            }
            fixture.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        do {
            #expect(try await !fixture.client.nameHasOwner(try BusName(DaemonFixture.name)))
            let result = try await fixture.bus.run(
                "dbus-send", ["--session", "--print-reply=literal", "--dest=org.navsession.Demo", "/org/navsession/Session1",
                              "org.navsession.Session1.ListWindows"], timeout: .seconds(40))
            let daemonLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(result.status == 0, "\(result)\ndaemon stderr: \(daemonLog)")
            #expect(result.stdout.contains("array ["), "\(result)")
            if try await fixture.client.nameHasOwner(try BusName(DaemonFixture.name)) {
                activatedPID = try await fixture.client.call(
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
