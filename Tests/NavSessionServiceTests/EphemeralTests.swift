import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `navsessiond --ephemeral`: a session for tests and fixtures that touches no disk.
@Suite struct EphemeralTests {
    @Test func anEphemeralDaemonWritesNothingAndRestartsEmpty() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-xdg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        // XDG_STATE_HOME points at a directory that does not exist: any file the daemon wrongly wrote shows there.
        try await DaemonFixture.with(state: .inMemory, environment: ["XDG_STATE_HOME": home]) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            try await fixture.stopDaemon()
            #expect(!FileManager.default.fileExists(atPath: home), "nothing under XDG_STATE_HOME")
            try await fixture.relaunch()
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.isEmpty == true)
        }
    }

    @Test func ephemeralAndAStateDirectoryExcludeEachOther() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let result = try await bus.run(try DaemonFixture.binary().path, ["--ephemeral", "--state-dir", "/tmp/x"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--ephemeral and --state-dir exclude each other"), "\(result)")
    }
}
