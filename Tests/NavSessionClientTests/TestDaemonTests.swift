import Foundation
import Synchronization
import NavSessionClient
import NavSessionTesting
import Testing
import XCTest

/// NavSessionTestDaemon itself: manifests, clean-up on every path, start failures.
@Suite(.timeLimit(.minutes(2)))
struct TestDaemonTests {
    @Test func withDaemonStopsEverythingWhenTheBodyThrows() async throws {
        struct Planned: Error {}
        let captured = Captured()
        await #expect(throws: Planned.self) {
            try await NavSessionTestDaemon.withDaemon { daemon in
                captured.set(daemon)
                #expect(daemon.isRunning)
                #expect(FileManager.default.fileExists(atPath: daemon.directory.path))
                throw Planned()
            }
        }
        let daemon = try #require(captured.daemon)
        #expect(!daemon.isRunning)
        #expect(!FileManager.default.fileExists(atPath: daemon.directory.path))
        await #expect(throws: NavSessionError.self) { try await daemon.session.listWindows() }
    }

    @Test func anInlineManifestNamesTheApplication() async throws {
        let manifest = #"""
            {"format": 1, "id": "org.example.TestApp", "title": "Test",
             "screens": [{"name": "start"}],
             "scenes": [{"name": "only", "default": true, "root": {"screen": "start"}}]}
            """#
        try await NavSessionTestDaemon.withDaemon(.init(manifest: .json(manifest))) { daemon in
            #expect(daemon.applicationID == "org.example.TestApp")
            #expect(try await daemon.session.scenes == ["only"])
            let window = try await daemon.session.openWindow(scene: "only")
            #expect(try await window.activeScreen == "start")
            #expect(daemon.environment["DBUS_SESSION_BUS_ADDRESS"] == daemon.address)
        }
    }

    @Test func aMissingDaemonIsAStartError() async throws {
        do {
            _ = try await NavSessionTestDaemon.start(.init(daemonPath: "/nonexistent/navsessiond"))
            Issue.record("started a daemon that does not exist")
        } catch let error as NavSessionTestDaemon.StartError {
            #expect(error.reason.contains("/nonexistent/navsessiond"))
        }
    }

    @Test func aDaemonThatExitsAtOnceIsAStartErrorWithItsOutput() async throws {
        do {
            _ = try await NavSessionTestDaemon.start(.init(manifest: .json(#"{"format": 1}"#), applicationID: "org.example.Broken"))
            Issue.record("a broken manifest started")
        } catch let error as NavSessionTestDaemon.StartError {
            #expect(error.reason.contains("exited"), "\(error)")
            #expect(!error.output.isEmpty, "\(error)")
        }
    }
}

/// Holds the daemon a scoped test saw, to look at it afterwards.
final class Captured: Sendable {
    private let box = Mutex<NavSessionTestDaemon?>(nil)
    var daemon: NavSessionTestDaemon? { box.withLock { $0 } }
    func set(_ daemon: NavSessionTestDaemon) { box.withLock { $0 = daemon } }
}

/// The same kit from XCTest: nothing in its API is tied to Swift Testing.
final class TestDaemonXCTests: XCTestCase {
    func testOpeningAWindowFromXCTest() async throws {
        let daemon = try await NavSessionTestDaemon.start()
        let window = try await daemon.session.openWindow(scene: "waiting")
        let scene = try await window.scene
        XCTAssertEqual(scene, "waiting")
        try await daemon.stop()
    }
}
