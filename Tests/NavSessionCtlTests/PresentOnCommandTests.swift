import Foundation
import Testing

/// `navsessionctl exec … present-on` and `show` against the real daemon.
@Suite(.timeLimit(.minutes(2)))
struct PresentOnCommandTests {
    @Test func presentOnRefusesWithoutReplaceAndReplacesWithIt() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            _ = try await daemon.exec(window, ["switch-model", "main"])
            let shown = try await daemon.exec(window, ["show", "compose", "to=ann"])
            let tree = try await daemon.ctl(["tree", window])
            #expect(tree.stdout.contains("compose"), "\(tree)")
            // The tab container presents compose (the nearest presenter).
            let tabs = try #require(tree.stdout.split(separator: "\n").first { $0.contains("tabs") }?
                .firstMatch(of: #/#(\d+)/#).map { String($0.output.1) })
            let refused = try await daemon.ctl(["exec", window, "present-on", tabs, "sheet", "about"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("org.navsession.Error.AlreadyPresenting"), "\(refused)")
            let replaced = try await daemon.ctl(["exec", window, "present-on", tabs, "cover", "about", "--transition=fade", "--replace"])
            #expect(replaced.status == 0, "\(replaced)")
            #expect(replaced.stdout.hasPrefix("\(shown + 1) "), "\(replaced)")
            let routes = try await daemon.ctl(["routes", "--json", window])
            #expect(routes.stdout == #"[{"style":"cover","screen":"about","withNavigation":false,"transition":"fade"}]"# + "\n", "\(routes)")
        }
    }
}
