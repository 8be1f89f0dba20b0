import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// `navsessiond --ephemeral`: a session for tests and fixtures that touches no disk.
@Suite struct EphemeralTests {
    @Test func anEphemeralDaemonWritesNothingAndRestartsEmpty() async throws {
        let fixture = try await DaemonFixture(ephemeral: true)
        do {
            try await fixture.start()
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            await fixture.shutdown(keepingState: true)
            #expect(!FileManager.default.fileExists(atPath: fixture.stateDirectory), "nothing under XDG_STATE_HOME")
            try await fixture.start()
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.isEmpty == true)
        } catch {
            fixture.stop()
            throw error
        }
        fixture.stop()
    }

    @Test func ephemeralAndAStateDirectoryExcludeEachOther() async throws {
        let bus = try PrivateBus.start()
        defer { bus.stop() }
        let result = try await bus.run(try DaemonFixture.binary().path, ["--ephemeral", "--state-dir", "/tmp/x"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--ephemeral and --state-dir exclude each other"), "\(result)")
    }
}
