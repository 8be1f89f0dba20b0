import Foundation
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// NavSessionClient's history calls against the demo.
struct HistoryClientTests {
    @Test func historyAndStateAtGiveTheChangesAndTheEarlierState() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.switchModel("main")
            try await window.apply([BatchCommand(.stackAppend(.screen("detail", params: ["id": "7"])))])
            let history = try await window.history()
            #expect(history.map(\.version) == [1, 2])
            #expect(history.map(\.activeScreen) == ["home", "detail"])
            let earlier = try await window.state(at: 1)
            #expect(earlier.version == 1)
            #expect(!earlier.models.contains { $0.screen == "detail" })
        }
    }

    @Test func aVersionNotKeptIsItsOwnError() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            do {
                _ = try await window.state(at: 5)
                Issue.record("GetStateAt of a version the window never reached succeeded")
            } catch let error as NavSessionError {
                guard case .versionNotKept(let message) = error else { throw error }
                #expect(message.contains("versions 0 to 0"), "\(message)")
            }
        }
    }
}
