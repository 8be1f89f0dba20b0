import Foundation
import Testing

/// `list` shows a navigation waiting for an entry condition; `exec WINDOW cancel-pending` drops it.
@Suite(.timeLimit(.minutes(2)))
struct PendingNavigationCommandTests {
    @Test func listShowsThePendingNavigationAndCancelPendingDropsIt() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            // The demo's account screen requires state main: logged out, the append is redirected and waits.
            try await daemon.exec(window, ["stack-append", "account"])
            let list = try await daemon.ctl(["list"])
            #expect(list.lines.first?.contains(#" pending={"commands":"#) == true, "\(list)")
            let json = try await daemon.ctl(["list", "--json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect((rows.first?["pendingNavigation"] as? String)?.contains("account") == true, "\(json)")

            let cancelled = try await daemon.ctl(["exec", window, "cancel-pending"])
            #expect(cancelled.status == 0 && cancelled.stdout.isEmpty, "\(cancelled)")
            let after = try await daemon.ctl(["list"])
            #expect(after.lines.first?.contains("pending=") == false, "\(after)")
        }
    }
}
