import Foundation
import NavSessionTesting
import Testing

/// `closed` lists the recently closed windows; `reopen [ID]` reopens one.
@Suite(.timeLimit(.minutes(2)))
struct ClosedWindowCommandTests {
    @Test func closedListsAClosedWindowAndReopenBringsItBack() async throws {
        try await DaemonFixture.with { daemon in
            #expect(try await daemon.ctl(["open-window", "waiting", "reason=sync"]).status == 0)
            #expect(try await daemon.ctl(["dismiss-window", "1"]).status == 0)
            let text = try await daemon.ctl(["closed"])
            #expect(text.status == 0, "\(text)")
            #expect(text.lines.count == 1 && text.lines[0].hasPrefix(#"1 waiting waiting "Please wait" closed="#), "\(text)")
            let json = try await daemon.ctl(["closed", "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(entries.first?["id"] as? String == "1" && entries.first?["scene"] as? String == "waiting", "\(json)")
            let reopened = try await daemon.ctl(["reopen", "1"])
            #expect(reopened.status == 0, "\(reopened)")
            #expect(reopened.lines == ["/org/navsession/Session1/window/2"], "\(reopened)")
            #expect(try await daemon.ctl(["closed"]).lines.isEmpty)
        }
    }

    @Test func reopenOfAnUnknownIdFailsNamingTheError() async throws {
        try await DaemonFixture.with { daemon in
            let result = try await daemon.ctl(["reopen", "7"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("UnknownClosedWindow"), "\(result)")
        }
    }
}
