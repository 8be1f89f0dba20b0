import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Window groups: windows that close together, reopen together, and are saved and opened together.
struct WindowGroupTests {
    func twoGrouped(_ session: Session) throws -> (WindowNumber, WindowNumber, WindowNumber) {
        let first = try #require(session.openWindow(scene: "waiting").window)
        let second = try #require(session.openWindow(scene: "waiting").window)
        let other = try #require(session.openWindow(scene: "waiting").window)
        try session.groupWindows("work", windows: [first, second])
        return (first, second, other)
    }

    @Test func aGroupClosesAndReopensTogether() throws {
        let session = try demoSession()
        let (first, second, other) = try twoGrouped(session)
        #expect(try session.window(first).group == "work" && session.window(other).group == nil)
        let closed = try session.dismissWindow(second)
        #expect(closed.closedWindows == [second, first])
        #expect(session.windows.map(\.number) == [other])
        #expect(session.closedWindows.prefix(2).allSatisfy { $0.group == "work" })
        let reopened = try session.reopenWindow(String(first))
        #expect(reopened.openedWindows.count == 2)
        #expect(session.windows(inGroup: "work").count == 2)
        #expect(session.closedWindows.allSatisfy { $0.group != "work" })
    }

    @Test func anEmptyListDissolvesTheGroupAndABadNameIsRefused() throws {
        let session = try demoSession()
        let (first, _, _) = try twoGrouped(session)
        try session.groupWindows("work", windows: [])
        #expect(session.windows(inGroup: "work").isEmpty)
        #expect(throws: SessionError.self) { try session.groupWindows("a/b", windows: [first]) }
        #expect(throws: SessionError.self) { try session.groupWindows("x", windows: [first, first]) }
        #expect(throws: SessionError.unknownWindow(99)) { try session.groupWindows("x", windows: [99]) }
    }

    @Test(arguments: [false, true])
    func groupsComeBackAfterARestart(_ compact: Bool) throws {
        let directory = temporaryDirectory()
        do {
            let session = try demoSession(directory: directory)
            _ = try twoGrouped(session)
            if compact { try session.checkpoint() }
        }
        let restored = try demoSession(directory: directory)
        #expect(restored.windows(inGroup: "work").map(\.number) == [1, 2])
    }

    @Test func aSavedSessionOpensItsGroupsAgain() throws {
        let session = try demoSession()
        let (first, second, other) = try twoGrouped(session)
        try session.saveSession("s", windows: [first, second, other])
        let opened = try session.openSession("s")
        let numbers = opened.openedWindows
        #expect(numbers.count == 3)
        #expect(session.windows(inGroup: "work").map(\.number) == Array(numbers.prefix(2)))
    }
}
