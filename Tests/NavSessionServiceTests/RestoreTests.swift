import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// What a restarted daemon does with the state it restores.
@Suite struct RestoreTests {
    @Test func closeOnExitWindowOfAClientGoneWhileDownIsClosedAtStart() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let other = try await fixture.connect()
            let reply = try await other.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("OpenWindow"),
                arguments: [.string("waiting"), .noParams], timeout: .seconds(10))
            let window = try #require(reply.first?.objectPath)
            _ = try await other.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("SetCloseOnExit"),
                arguments: [.objectPath(window), .boolean(true)], timeout: .seconds(10))
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            await other.close()
            try await fixture.relaunch()
            let windows = try await fixture.call(DaemonFixture.session, "org.navsession.Session1", "ListWindows")
            #expect(windows == [.array(.objectPath, [])])
        }
    }
}
