import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationCore
import Testing

/// Regression tests for what one client could once do to the daemon (no client can take the
/// daemon down), on a private bus with dbus-daemon's compiled-in limits (dbus/test-session.conf).
@Suite struct ReliabilityTests {
    static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"

    /// The daemon still answers, owns its name and runs.
    func expectAlive(_ fixture: DaemonFixture) async throws {
        _ = try await fixture.session("ListWindows")
        #expect(try await fixture.bus.nameHasOwner(try BusName(DaemonFixture.name)))
        #expect(fixture.process?.isRunning == true)
    }

    @Test func aLongStackPathIsRefusedBeforeAnyWorkAndTheDaemonStays() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let before = try await fixture.version(window)
            let error = await fixture.error {
                try await fixture.window(
                    window, "StackSetPath", [.strings(Array(repeating: "home", count: GraphLimits().maxStackDepth * 2))])
            }
            #expect(error?.name.rawValue == Self.limitsExceeded)
            #expect(try await fixture.version(window) == before)
            try await expectAlive(fixture)
        }
    }

    @Test func aFullStackPopsInOneChangedWithoutOneSignalPerModel() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let depth = GraphLimits().maxStackDepth
            _ = try await fixture.window(window, "StackSetPath", [.strings(Array(repeating: "home", count: depth))])
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            _ = try await fixture.window(window, "StackDropToRoot")
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(changed.arguments[5].arrayElements?.count == depth - 1)
            #expect(await fixture.error {
                try await fixture.window(window, "StackSetPath", [.strings(Array(repeating: "home", count: depth + 1))])
            }?.name.rawValue == Self.limitsExceeded)
            try await expectAlive(fixture)
        }
    }

    @Test func anOversizedScreenNameIsRefusedAndARestartComesUp() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let huge = String(repeating: "x", count: 11 << 20)
            for _ in 0..<3 {
                let error = await fixture.error { try await fixture.window(window, "StackAppend", [.string(huge), .params([:])]) }
                #expect(error?.name.rawValue == Self.limitsExceeded)
            }
            try await expectAlive(fixture)
            try await fixture.stopDaemon()
            try await fixture.relaunch()
            try await expectAlive(fixture)
        }
    }

    @Test func descriptorsSentToTheDaemonAreClosed() async throws {
        try await DaemonFixture.with { fixture in
            let pid = try #require(fixture.process?.pid)
            func openDescriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }
            let descriptor = open("/dev/null", O_RDONLY)
            defer { close(descriptor) }
            _ = try await fixture.call(
                DaemonFixture.applicationPath, "org.freedesktop.Application", "Activate",
                [.dictionary(key: .string, value: .variant, [DictionaryEntry(.string("fd"), .variant(.unixFD(descriptor)))])])
            let before = openDescriptors()
            for _ in 0..<40 {
                _ = try await fixture.call(
                    DaemonFixture.applicationPath, "org.freedesktop.Application", "Activate",
                    [
                        .dictionary(
                            key: .string, value: .variant,
                            [
                                DictionaryEntry(.string("fd"), .variant(.unixFD(descriptor))),
                                DictionaryEntry(.string("fds"), .variant(.array(.unixFD, [.unixFD(descriptor), .unixFD(descriptor)]))),
                            ])
                    ])
            }
            #expect(openDescriptors() == before)
            try await expectAlive(fixture)
        }
    }

    @Test func anOutOfRangeModelIdIsInvalidArgsNotFailed() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let send = await fixture.error {
                try await fixture.window(window, "SendMessage", [.uint64(.max), .string("hi"), .params([:])])
            }
            #expect(send?.name == .invalidArgs)
            let execute = await fixture.error {
                try await fixture.window(window, "ExecuteAt", [.uint64(.max), .string(#"{"command":"dismiss"}"#)])
            }
            #expect(execute?.name == .invalidArgs)
        }
    }

    @Test func aPlanOverTheLimitsIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let routes = "[" + Array(repeating: #"{"style":"push","screen":"a"}"#, count: 1000).joined(separator: ",") + "]"
            let error = await fixture.error {
                try await fixture.session("Plan", [.string("[]"), .string(routes), .boolean(false), .boolean(false)])
            }
            #expect(error?.name.rawValue == Self.limitsExceeded)
            let routes200 = "[" + Array(repeating: #"{"style":"push","screen":"a"}"#, count: 200).joined(separator: ",") + "]"
            let big = await fixture.error {
                try await fixture.session("Plan", [.string("[]"), .string(routes200), .boolean(false), .boolean(false)])
            }
            #expect(big?.name.rawValue == Self.limitsExceeded)
            try await expectAlive(fixture)
        }
    }

    @Test func onlyTheTiedClientMayChangeACloseOnExitTie() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.session("SetCloseOnExit", [try .path(window), .boolean(true)])
            let other = try await fixture.connect()
            let name = try BusName(DaemonFixture.name)
            for enabled in [false, true] {
                do {
                    _ = try await other.call(
                        destination: name, path: try ObjectPath(DaemonFixture.session),
                        interface: try InterfaceName(DaemonFixture.sessionInterface), member: try MemberName("SetCloseOnExit"),
                        arguments: [try .path(window), .boolean(enabled)])
                    Issue.record("another client changed the tie")
                } catch let error as BusError {
                    #expect(error.name == .accessDenied)
                }
            }
            await other.close()
            _ = try await fixture.session("SetCloseOnExit", [try .path(window), .boolean(false)])
        }
    }

    @Test func losingTheBusExitsWithStatusOne() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            fixture.stopBus()
            #expect(await fixture.waitForExit(process))
            #expect(process.exit == .exited(1))
            #expect(fixture.output.contains("lost the bus connection"))
        }
    }

    @Test func aCleanShutdownWritesASnapshotAndEmptiesTheJournal() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            try await fixture.stopDaemon()
            let journal = try String(contentsOfFile: fixture.statePath + "/journal.jsonl", encoding: .utf8)
            #expect(journal.split(separator: "\n").count == 1)  // the header only
            let state = try String(contentsOfFile: fixture.statePath + "/state.json", encoding: .utf8)
            #expect(state.contains("\"number\":1"))
        }
    }

    /// D-Bus strings cannot carry a NUL byte; one that reached the graph once made every `GetTree` fail.
    @Test func aNULByteNeverReachesTheGraph() async throws {
        try await DaemonFixture.with { fixture in
            let link = await fixture.error {
                try await fixture.session("OpenURL", [.string("navsession-demo://waiting?reason=later%00")])
            }
            #expect(link?.name.rawValue == "org.navsession.Error.MalformedURL")
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let batches = [
                #"[{"command":"sendMessage","from":1,"name":"x\u0000"}]"#,
                #"[{"command":"stackAppend","from":1,"models":[{"screen":"a","params":{"k":"\u0000"}}]}]"#,
            ]
            for batch in batches {
                let error = await fixture.error { try await fixture.session("Apply", [try .path(window), .string(batch)]) }
                #expect(error?.name.rawValue == "org.navsession.Error.InvalidBatch", "\(batch)")
            }
            let plan = await fixture.error {
                try await fixture.session("Plan", [.string("[]"), .string(#"[{"style":"push","screen":"\u0000"}]"#),
                                                   .boolean(false), .boolean(false)])
            }
            #expect(plan?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
            _ = try await fixture.window(window, "GetTree")
            try await expectAlive(fixture)
        }
    }
}
