import NavigationCore
import Testing

@testable import NavigationSession

/// What a batch's `openWindow` commands count against the window limit.
@Suite struct BatchWindowLimitTests {
    @Test func aBatchOpeningMoreWindowsThanRemainIsRefusedAndAppliesNothing() throws {
        let session = try demoSession(limits: SessionLimits(maxWindows: 3))
        let main = try loggedInMain(session)
        let before = try session.window(main).graph.version
        let open = BatchCommand(.openWindow(scene: "waiting", params: [:]))
        #expect {
            let batch = [BatchCommand(.tabsSelectItem("settings"))] + Array(repeating: open, count: 3)
            return try session.apply(window: main, batch: batch)
        } throws: { error in
            guard case .limitsExceeded(let message) = error as? SessionError else { return false }
            return message.contains("would open 3 windows") && message.contains("SessionLimits.maxWindows")
        }
        #expect(try session.window(main).graph.version == before)
        #expect(session.windows.count == 1)
    }

    @Test func aBatchOpeningExactlyTheWindowsThatRemainApplies() throws {
        let session = try demoSession(limits: SessionLimits(maxWindows: 3))
        let main = try loggedInMain(session)
        let open = BatchCommand(.openWindow(scene: "waiting", params: [:]))
        let outcome = try session.apply(window: main, batch: [open, open])
        #expect(outcome.openedWindows.count == 2)
    }

    @Test func aSingleInstanceSceneAlreadyOpenCountsNoWindow() throws {
        let session = try demoSession(limits: SessionLimits(maxWindows: 1))
        let main = try loggedInMain(session)
        let openMain = NavigationCommand.openWindow(scene: "main", params: [:])
        let again = BatchCommand(.sequence([openMain, openMain]))
        #expect(throws: Never.self) { try session.apply(window: main, batch: [again]) }
        #expect(session.windows.count == 1)
    }
}
