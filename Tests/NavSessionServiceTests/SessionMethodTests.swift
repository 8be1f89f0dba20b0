import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

@Suite(.serialized) struct SessionMethodTests {
    @Test func openWindowWithBusctlReturnsWindowOne() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.run(
                "busctl", ["--user", "call", DaemonFixture.name, DaemonFixture.session, "org.navsession.Session1", "OpenWindow",
                           "sa{ss}", "main", "0"])
            #expect(result.stdout == "o \"/org/navsession/Session1/window/1\"\n", "\(result)")
        }
    }

    @Test func unknownSceneWithDbusSendIsUnknownScene() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.run(
                "dbus-send", ["--session", "--print-reply", "--dest=\(DaemonFixture.name)", DaemonFixture.session,
                              "org.navsession.Session1.OpenWindow", "string:nowhere", "dict:string:string:"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.UnknownScene"), "\(result)")
        }
    }

    @Test func stackAppendBumpsVersionByOneAndSignalsChanged() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.window(window, "SwitchModel", [.string("main"), .noParams])
            let changes = try await fixture.bus.signals(
                matching: MatchRule(path: try ObjectPath(window), interface: try InterfaceName("org.navsession.Window1"),
                                    member: try MemberName("Changed")))
            let reply = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "7"])])
            let signal = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(reply == [.uint64(2)])
            #expect(signal.arguments[0] == .uint64(2))
            #expect(signal.arguments[1] == .uint64(1))
        }
    }

    @Test func dismissedWindowPathIsUnknownObjectWithGdbus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.call(
                DaemonFixture.session, "org.navsession.Session1", "DismissWindow", [.objectPath(try ObjectPath(window))])
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.GetTree"])
            #expect(result.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(result)")
            let again = try await fixture.openWindow()
            #expect(again == "/org/navsession/Session1/window/2")
        }
    }

    @Test func badBatchJSONIsInvalidBatchAndTheDaemonKeepsAnswering() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            await #expect(throws: BusError.self) {
                _ = try await fixture.call(
                    DaemonFixture.session, "org.navsession.Session1", "Apply",
                    [.objectPath(try ObjectPath(window)), .string("[{\"command\":\"teleport\"}]")])
            }
            do {
                _ = try await fixture.call(
                    DaemonFixture.session, "org.navsession.Session1", "Apply", [.objectPath(try ObjectPath(window)), .string("{")])
            } catch let error as BusError {
                #expect(error.name.rawValue == "org.navsession.Error.InvalidBatch")
            }
            let tree = try await fixture.window(window, "GetTree")
            #expect(tree.first?.string?.contains("login") == true)
        }
    }

    @Test func overLongURLIsLimitsExceeded() async throws {
        try await DaemonFixture.with { fixture in
            do {
                _ = try await fixture.call(
                    DaemonFixture.session, "org.navsession.Session1", "OpenURL",
                    [.string("navsession-demo://detail/" + String(repeating: "1", count: 9000))])
                Issue.record("expected an error")
            } catch let error as BusError {
                #expect(error.name == .limitsExceeded)
            }
        }
    }

    @Test func deepLinkWhileLoggedOutWaitsForLogIn() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let handled = try await fixture.call(
                DaemonFixture.session, "org.navsession.Session1", "OpenURL", [.string("navsession-demo://detail/42")])
            #expect(handled == [.objectPath(try ObjectPath(window))])
            _ = try await fixture.window(window, "SwitchModel", [.string("main"), .noParams])
            let routes = try await fixture.window(window, "GetRoutes")
            #expect(routes == [.string(#"[{"style":"push","screen":"detail","params":{"id":"42"}}]"#)])
        }
    }

    @Test func applicationOpenFollowsDeepLinks() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.window(window, "SwitchModel", [.string("main"), .noParams])
            _ = try await fixture.call(
                "/org/navsession/Demo", "org.freedesktop.Application", "Open",
                [.strings(["navsession-demo://detail/5"]), .dictionary(key: .string, value: .variant, [])])
            let screen = try await fixture.bus.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(window), interface: .properties,
                member: try MemberName("Get"), arguments: [.string("org.navsession.Window1"), .string("ActiveScreen")])
            #expect(screen == [.variant(.string("detail"))])
        }
    }

    @Test func stateSurvivesSigkillRestart() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            _ = try await fixture.window(window, "SwitchModel", [.string("main"), .noParams])
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "3"])])
            let before = try await fixture.window(window, "GetState")
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            try await fixture.relaunch()
            let after = try await fixture.window(window, "GetState")
            #expect(before == after)
            // "main" is a singleton (the restored window 1); a new window of another scene gets number 2.
            let next = try await fixture.openWindow("waiting")
            #expect(next == "/org/navsession/Session1/window/2")
        }
    }

    @Test func closeOnExitClosesTheWindowWhenTheClientLeaves() async throws {
        try await DaemonFixture.with { fixture in
            let other = try await fixture.connect()
            let reply = try await other.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("OpenWindow"),
                arguments: [.string("main"), .noParams], timeout: .seconds(10))
            let window = try #require(reply.first?.objectPath)
            _ = try await other.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("SetCloseOnExit"),
                arguments: [.objectPath(window), .boolean(true)], timeout: .seconds(10))
            let removed = try await fixture.bus.signals(
                matching: MatchRule(path: try ObjectPath(DaemonFixture.session), interface: .objectManager,
                                    member: try MemberName("InterfacesRemoved")))
            await other.close()
            let signal = try await first(removed, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments.first == .objectPath(window))
        }
    }
}
