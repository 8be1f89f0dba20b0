import DBusTestSupport
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// The complete example of Docs/client.md, run against the real daemon (only the connection differs, and the
/// wait's bound, which is the tests' liveness bound rather than the article's 5 s).
@Suite(.timeLimit(.minutes(2)))
struct DocumentationExampleTests {
    @Test func theClientArticleExampleRuns() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            try await Self.example(daemon.client)
        }
    }

    static func example(_ client: NavSessionClient) async throws {
        // Session1.OpenWindow: a typed WindowProxy back.
        let window = try await client.session.openWindow(scene: "main")
        try await window.switchModel("main")                       // log in: tabs home and settings

        // Follow the window. The stream is subscribed before it reads the state, so nothing falls between.
        let changes = try await client.changes(of: window)
        let follower = Task {
            for try await change in changes {
                switch change {
                case .changed(let event):
                    print("v\(event.version): started \(event.started), cause \(event.causeJSON)")
                case .resynchronized(let snapshot):
                    print("missed changes; the window is at v\(snapshot.version)")
                }
            }
            print("stream ended:", changes.endReason.map { "\($0)" } ?? "?")   // e.g. windowRemoved
        }

        // A batch of the core's commands: atomic, one version bump, compare-and-set on the version.
        let version = try await window.version
        let result = try await window.apply([
            BatchCommand(.stackAppend(.screen("detail", params: ["id": "42"]))),
            BatchCommand(.present(.sheet(.stacked(.screen("editor", params: ["id": "42"])))), animated: false),
        ], expectedVersion: version)
        print("now at v\(result.version); started models \(result.started)")

        // Errors are one typed enum.
        do throws(NavSessionError) {
            try await window.apply([BatchCommand(.dismiss)], expectedVersion: version)   // stale version
        } catch .versionMismatch(let message) {
            print("someone else changed the window:", message)
        }

        // Wait for a state: checked now, then after each change; times out with the last state.
        try await window.dismiss()
        let snapshot = try await client.wait(for: window, timeout: Liveness.bound(.seconds(5))) { snapshot in
            snapshot.models.contains { $0.screen == "detail" } && snapshot.version > result.version
        }
        print("the sheet is gone at v\(snapshot.version)")

        try await client.session.dismissWindow(window)    // the change stream finishes
        try await follower.value
        #expect(changes.endReason == .windowRemoved)
    }
}
