import DBusKit
import Foundation
import Testing

/// The daemon exits promptly on SIGTERM whenever it arrives (Docs/dbus-api.md, "Lifetime").
@Suite struct ShutdownTests {
    @Test func sigtermDuringStartupExitsWithinTheDeadline() async throws {
        let fixture = try await DaemonFixture()
        defer { fixture.stop() }
        let process = try fixture.launch([])
        process.terminate()
        let exited = await fixture.waitForExit(process)
        if !exited { kill(process.processIdentifier, SIGKILL) }
        #expect(exited, "navsessiond ignored a SIGTERM sent during startup; stderr: \(fixture.stderr)")
    }

    @Test func sigtermJustAfterTakingTheNameExitsCleanly() async throws {
        let fixture = try await DaemonFixture()
        defer { fixture.stop() }
        let process = try await fixture.start()
        process.terminate()
        let exited = await fixture.waitForExit(process)
        if !exited { kill(process.processIdentifier, SIGKILL) }
        try #require(exited, "navsessiond ignored SIGTERM; stderr: \(fixture.stderr)")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test func shutdownStopsTheDaemonWithoutBlocking() async throws {
        let fixture = try await DaemonFixture()
        let process = try await fixture.start()
        await fixture.shutdown()
        #expect(!process.isRunning)
    }
}
