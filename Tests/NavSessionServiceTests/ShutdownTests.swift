import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The daemon exits promptly on SIGTERM whenever it arrives (Docs/dbus-api.md, "Lifetime").
@Suite struct ShutdownTests {
    @Test func sigtermDuringStartupExitsWithinTheDeadline() async throws {
        try await DaemonFixture.with(launchesDaemon: false) { fixture in
            let process = try fixture.launch([])
            process.signal(SIGTERM)
            let exited = await fixture.waitForExit(process)
            if !exited { process.signal(SIGKILL) }
            #expect(exited, "navsessiond ignored a SIGTERM sent during startup; stderr: \(fixture.output)")
        }
    }

    @Test func sigtermJustAfterTakingTheNameExitsCleanly() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            process.signal(SIGTERM)
            let exited = await fixture.waitForExit(process)
            if !exited { process.signal(SIGKILL) }
            try #require(exited, "navsessiond ignored SIGTERM; stderr: \(fixture.output)")
            #expect(process.exit == .exited(0))
        }
    }

    @Test func stopEndsTheDaemonWithoutBlocking() async throws {
        let fixture = try await NavSessionTestDaemon.start(try DaemonFixture.serviceConfiguration())
        let process = try #require(fixture.process)
        try await fixture.stop()
        #expect(process.exit == .exited(0))
    }
}
