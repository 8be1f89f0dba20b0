import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// Entry guards through ``WindowProxy``: a redirected `stackAppend`, `pendingNavigation`, `cancelPending` and
/// `check`'s ``NavSessionError/entryRefused(_:)``.
@Suite(.timeLimit(.minutes(2)))
struct EntryGuardClientTests {
    @Test func aRedirectedStackAppendWaitsAndCancelPendingDropsIt() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.stackAppend("account")
            #expect(try await window.activeScreen == "login")
            let pending = try await window.pendingNavigation
            #expect(pending.contains(#""screen":"account""#), "\(pending)")
            #expect(try await window.properties().pendingNavigation == pending)
            try await window.cancelPending()
            #expect(try await window.pendingNavigation == "")
        }
    }

    @Test func checkOfARedirectedBatchThrowsEntryRefused() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            do {
                _ = try await window.check([BatchCommand(.stackAppend(.screen("account")))])
                Issue.record("check should refuse")
            } catch {
                guard let error = error as? NavSessionError, case .entryRefused(let message) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(message.contains("account"))
            }
        }
    }
}
