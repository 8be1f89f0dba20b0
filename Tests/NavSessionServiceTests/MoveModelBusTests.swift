import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Session1 `MoveModel` through gdbus, navsessionctl and a raw connection: a tear-off and a merge, the two windows'
/// `Changed` paired by one transaction id, a follow carried with the model, and after a SIGKILL the move whole.
@Suite struct MoveModelBusTests {
    /// The home tab's pushed detail, with a draft and a follower, torn off into a new window by gdbus and merged back
    /// by navsessionctl (the new window closes, all it held gone back): the same params and draft each time, one copy,
    /// the follower told where it went, the two windows' `Changed` of the merge sharing their transaction, and after
    /// SIGKILL the daemon comes back with the same routes.
    @Test func aDetailTearsOffAndMergesBackWithItsDraftAndFollower() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            try await fixture.logIn(main)
            _ = try await fixture.window(main, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let detail = try #require(try await fixture.windowProperty(main, "ActiveModel").uint64)
            _ = try await fixture.window(
                main, "Apply",
                [.string(#"[{"command":"setRendererState","model":\#(detail),"state":{"draft":"hello"}}]"#), .noParams])
            let (follower, followed) = try await FollowModelBusTests.follower(fixture, main, detail)
            let changed = try await fixture.signals(
                namespace: "/org/navsession/Session1", interface: try InterfaceName(DaemonFixture.windowInterface),
                member: "Changed")

            let torn = try await fixture.gdbusSession("MoveModel", ["1", "\(detail)", "0", #"{"scene":"waiting"}"#])
            #expect(torn.status == 0 && torn.stdout.hasPrefix("(uint64 2, uint64 "), "\(torn)")
            let second = "/org/navsession/Session1/window/2"
            // A tear-off changes the source (the new window opens with the branch): its Changed says where it went.
            let out = try await first(changed, timeout: .seconds(10)) { _ in true }
            #expect(out.path.rawValue == main)
            #expect(out.arguments[2].string?.contains(#""to":2,"transaction":"move-1-"#) == true, "\(out.arguments)")
            let models = try await fixture.models(second)
            let moved = try #require(models.first { ($0["id"] as? NSNumber)?.uint64Value == detail }, "ids kept: \(models)")
            #expect((moved["params"] as? [String: String]) == ["id": "42"])
            #expect(String(describing: moved["rendererState"] ?? "").contains("hello"))
            #expect(try await fixture.models(main).allSatisfy { ($0["id"] as? NSNumber)?.uint64Value != detail })
            // The follower heard from the detail's new window, with where it came from.
            let signal = try await first(followed, timeout: .seconds(10)) { $0.path.rawValue == second }
            #expect(signal.arguments[2].string?.contains(#""moved":{"from":1,"model":\#(detail)"#) == true, "\(signal.arguments)")

            // Merge back into window 1's home stack, by navsessionctl.
            let ctl = try BuiltProduct.require("navsessionctl").path
            let merged = try await fixture.run(ctl, ["move", "2", "\(detail)", "1", "--json"])
            #expect(merged.status == 0 && merged.stdout.contains(#""window":"1""#), "\(merged)")
            // A merge changes both windows: two Changed, one transaction.
            let pair = try await take(2, of: changed)
            let transactions = pair.compactMap { signal -> String? in
                guard let cause = signal.arguments[2].string,
                    let range = cause.range(of: #"move-2-[0-9]+"#, options: .regularExpression)
                else { return nil }
                return String(cause[range])
            }
            #expect(Set(pair.map(\.path.rawValue)) == [main, second])
            #expect(transactions.count == 2 && Set(transactions).count == 1, "\(pair.map(\.arguments))")
            let back = try await fixture.models(main).filter { ($0["screen"] as? String) == "detail" }
            #expect(back.count == 1 && (back.first?["params"] as? [String: String]) == ["id": "42"], "\(back)")
            // All window 2 held went back: it closed (as a browser window whose only tab is dragged away), unremembered.
            let windows = try await fixture.session("ListWindows").first?.arrayElements?.compactMap { $0.objectPath?.rawValue }
            #expect(windows == [main], "\(String(describing: windows))")
            let closed = try await fixture.gdbusSession("ListClosedWindows")
            #expect(closed.stdout.contains("'[]'"), "\(closed)")
            let routes = try await fixture.routeSummaries(main)
            await follower.close()

            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await fixture.routeSummaries(main) == routes)
            let restored = try await fixture.models(main).filter { ($0["screen"] as? String) == "detail" }
            #expect(restored.count == 1 && String(describing: restored.first?["rendererState"] ?? "").contains("hello"))
        }
    }

    /// What cannot move is refused with its documented error, through the bus.
    @Test func whatCannotMoveAnswersItsError() async throws {
        try await DaemonFixture.with { fixture in
            let main = try await fixture.openWindow()
            try await fixture.logIn(main)
            let root = try await fixture.gdbusSession("MoveModel", ["1", "1", "0", "''"])
            #expect(root.status != 0 && root.stderr.contains("org.navsession.Error.InvalidSpec"), "\(root)")
            let unknown = try await fixture.gdbusSession("MoveModel", ["1", "999", "0", "''"])
            #expect(unknown.status != 0 && unknown.stderr.contains("org.navsession.Error.UnknownModel"), "\(unknown)")
            let window = try await fixture.gdbusSession("MoveModel", ["7", "3", "0", "''"])
            #expect(window.status != 0 && window.stderr.contains("UnknownObject"), "\(window)")
            let placement = try await fixture.gdbusSession("MoveModel", ["1", "3", "0", #"'{"stak":1}'"#])
            #expect(placement.status != 0 && placement.stderr.contains("did you mean"), "\(placement)")
        }
    }
}
