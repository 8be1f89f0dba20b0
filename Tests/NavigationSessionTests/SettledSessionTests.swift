import NavigationCore
import Testing

@testable import NavigationSession

/// Settled versions in the session (Window1 `ReportSettled`).
struct SettledSessionTests {
    @Test func aVersionSettlesOnceAndAnOlderOrTheSameIsANoOp() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        try session.execute(window: number, command: .switchModel(.screen("main")))
        let version = try session.window(number).version
        #expect(try session.reportSettled(window: number, version: version, client: ":1.7"))
        #expect(try !session.reportSettled(window: number, version: version, client: ":1.7"))
        #expect(try !session.reportSettled(window: number, version: version - 1, client: ":1.8"))
        #expect(try session.window(number).settledVersion == version)
        #expect(try session.window(number).settledBy == ":1.8")
    }

    @Test func aVersionTheWindowHasNotReachedIsRefusedNamingBoth() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let version = try session.window(number).version
        #expect(throws: SessionError.versionNotReached(window: number, version: version + 3, actual: version)) {
            try session.reportSettled(window: number, version: version + 3, client: nil)
        }
        #expect(try session.window(number).settledVersion == 0)
    }

    @Test func theRendererLeavingForgetsItAsTheWindowsSettler() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        _ = try session.reportSettled(window: number, version: 0, client: ":1.9")
        #expect(session.settlerLeft(":1.9") == [number])
        #expect(try session.window(number).settledBy == nil)
        #expect(session.settlerLeft(":1.9").isEmpty)
    }
}
