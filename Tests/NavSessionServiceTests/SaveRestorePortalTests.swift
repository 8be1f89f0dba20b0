import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Synchronization
import Testing

/// The daemon and the SaveRestore portal, against ``SaveRestorePortalStandIn`` on the test's bus.
@Suite struct SaveRestorePortalTests {
    /// Starts the bus without the daemon, the stand-in portal on it, then the daemon.
    func withPortal(
        _ answer: SaveRestorePortalStandIn.Answer, _ body: (DaemonFixture, SaveRestorePortalStandIn) async throws -> Void
    ) async throws {
        try await DaemonFixture.with(launchesDaemon: false) { fixture in
            let portal = try await SaveRestorePortalStandIn.start(on: fixture.address, answer: answer)
            do {
                try await fixture.relaunch()
                try await body(fixture, portal)
            } catch {
                await portal.close()
                throw error
            }
            await portal.close()
        }
    }

    func sessionString(_ fixture: DaemonFixture, _ name: String) async throws -> String? {
        try await fixture.property(DaemonFixture.session, DaemonFixture.sessionInterface, name).string
    }

    @Test func registersAndUsesThePortalsInstanceAndReason() async throws {
        try await withPortal(.init(instanceID: "desk1", reason: 3)) { fixture, portal in
            #expect(portal.calls.withLock { $0 } == ["Register"])
            #expect(try await sessionString(fixture, "Instance") == "desk1")
            #expect(try await sessionString(fixture, "RestoreReason") == "restore")
            _ = try await fixture.openWindow()
            #expect(FileManager.default.fileExists(atPath: fixture.statePath + "@desk1"))
        }
    }

    @Test func answersSaveHintWithEverythingDurable() async throws {
        try await withPortal(.init(instanceID: "desk1", reason: 1)) { fixture, portal in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let version = try await fixture.version(window)
            try await portal.emit("SaveHint")
            // The real portal's deadline is 3 s; the daemon answers right after one snapshot. The stand-in has no
            // deadline, so this waits for the answer with a liveness bound rather than asserting its latency.
            let bound = Liveness.bound(.seconds(3))
            let answered = await portal.events.first(within: bound) { $0 == "SaveHintResponse" }
            #expect(answered != nil, "no SaveHintResponse within \(bound); \(fixture.output)")
            // Durable: the snapshot holds the change (the journal is only its header again).
            let state = try String(contentsOfFile: fixture.statePath + "@desk1/state.json", encoding: .utf8)
            #expect(state.contains("\"version\":\(version)"), "\(state.prefix(400))")
        }
    }

    @Test func exitsOnQuitWithEverythingSavedAndTwoPortalInstancesKeepSeparateStates() async throws {
        try await withPortal(.init(instanceID: "desk2", reason: 1)) { fixture, portal in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let process = try #require(fixture.process)
            try await portal.emit("Quit")
            let exit = await process.exit(within: .seconds(30))
            #expect(exit == .exited(0), "\(String(describing: exit)); \(fixture.output)")
            #expect(portal.calls.withLock { $0 }.contains("Close"))
            // Another instance the portal names starts with a state of its own…
            portal.answer.withLock { $0 = .init(instanceID: "desk3", reason: 3) }
            try await fixture.relaunch()
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.count == 0)
            // …and desk2's saved window comes back when the portal names desk2 again.
            try await fixture.stopDaemon()
            portal.answer.withLock { $0 = .init(instanceID: "desk2", reason: 3) }
            try await fixture.relaunch()
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.count == 1)
        }
    }

    @Test func deletesTheStateOfDiscardedInstances() async throws {
        try await DaemonFixture.with(launchesDaemon: false) { fixture in
            // An old instance's state, as a previous run left it.
            let old = fixture.statePath + "@old1"
            try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data("{}".utf8).write(to: URL(fileURLWithPath: old + "/state.json"))
            let portal = try await SaveRestorePortalStandIn.start(
                on: fixture.address, answer: .init(instanceID: "new1", reason: 0, discard: ["old1"]))
            do {
                try await fixture.relaunch()
                #expect(!FileManager.default.fileExists(atPath: old))
                #expect(portal.calls.withLock { $0 }.contains("DiscardedInstanceIds old1"))
                #expect(try await sessionString(fixture, "RestoreReason") == "pristine")
            } catch {
                await portal.close()
                throw error
            }
            await portal.close()
        }
    }
}
