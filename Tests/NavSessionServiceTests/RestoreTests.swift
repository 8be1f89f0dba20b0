import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// What a restarted daemon does with the state it restores.
@Suite struct RestoreTests {
    @Test func closeOnExitWindowOfAClientGoneWhileDownIsClosedAtStart() async throws {
        let fixture = try await DaemonFixture()
        defer { fixture.stop() }
        let process = try await fixture.start()
        let other = try await fixture.bus.connect()
        let reply = try await other.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
            interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("OpenWindow"),
            arguments: [.string("waiting"), .noParams], timeout: .seconds(10))
        let window = try #require(reply.first?.objectPath)
        _ = try await other.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
            interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("SetCloseOnExit"),
            arguments: [.objectPath(window), .boolean(true)], timeout: .seconds(10))
        kill(process.processIdentifier, SIGKILL)
        #expect(await fixture.waitForExit(process))
        await other.close()
        try await fixture.start()
        let windows = try await fixture.call(DaemonFixture.session, "org.navsession.Session1", "ListWindows")
        #expect(windows == [.array(.objectPath, [])])
    }
}
