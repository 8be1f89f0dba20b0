import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Losing the bus name: only a `navsessiond --replace` handover is a
/// request to stop; anyone else taking the name is an error with a documented exit status, so a supervisor
/// brings the daemon back, and a daemon that cannot get its name says who holds it.
@Suite(.serialized) struct NameLossTests {
    @Test func aClientTakingTheNameMakesTheDaemonExitWithStatus3NamingIt() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let thief = try await fixture.connect()
            let reply = try await thief.requestName(try BusName(DaemonFixture.name), options: [.replaceExisting, .doNotQueue])
            #expect(reply == .primaryOwner)
            let exit = await process.exit(within: .seconds(30))
            #expect(exit == .exited(3), "\(String(describing: exit)); it wrote:\n\(fixture.output)")
            #expect(fixture.output.contains("error"), "\(fixture.output)")
            #expect(fixture.output.contains("pid \(getpid())"), "the log names the taker: \(fixture.output)")
            await thief.close()
        }
    }

    @Test func aDaemonThatCannotGetItsNameSaysWhoHoldsIt() async throws {
        try await DaemonFixture.with(state: .inMemory) { fixture in
            let first = try #require(fixture.process)
            let second = try fixture.launch()
            let exit = await second.exit(within: .seconds(30))
            #expect(exit != nil && exit != .exited(0), "\(String(describing: exit))")
            #expect(fixture.output.contains("already owned by"), "\(fixture.output)")
            #expect(fixture.output.contains("pid \(first.pid)"), "the line names the holder: \(fixture.output)")
        }
    }
}
