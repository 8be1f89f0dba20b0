import DBusTestSupport
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// `wait(for:until:)`, `waitUntilClosed` and `state(of:)`. Waits for what must happen have liveness bounds
/// (``Liveness/bound(_:)``); the timeout test keeps its short 300 ms, since it waits for nothing that comes.
@Suite(.timeLimit(.minutes(2)))
struct WaitTests {
    @Test func waitReturnsAtOnceWhenTheStateAlreadyHolds() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            let snapshot = try await daemon.client.wait(for: window, timeout: Liveness.bound(.seconds(5))) { $0.version >= 0 }
            #expect(snapshot == (try await window.getState()))
            let same = try await daemon.client.wait(for: window, until: { $0.version >= 0 }, timeout: Liveness.bound(.seconds(5)))
            #expect(same == snapshot)
        }
    }

    @Test func waitFollowsChangesUntilTheConditionHolds() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            let target = try await window.version + 3
            async let reached = daemon.client.wait(for: window, timeout: Liveness.bound(.seconds(20))) {
                UInt64($0.version) >= target
            }
            let other = try await daemon.connectClient()
            let driven = other.window(number: window.number ?? 0)
            try await driven.switchModel("main")
            try await driven.stackAppend("detail", params: ["id": "1"])
            try await driven.stackAppend("profile")
            await other.close()
            let snapshot = try await reached
            #expect(UInt64(snapshot.version) == target)
            let screen = try await daemon.client.wait(
                for: window, timeout: Liveness.bound(.seconds(5)), observing: { _ in try await window.activeScreen },
                until: { $0 == "profile" })
            #expect(screen == "profile")
        }
    }

    @Test func waitTimesOutWithTheLastState() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.switchModel("main")
            do throws(NavSessionError) {
                _ = try await daemon.client.wait(for: window, timeout: .milliseconds(300)) { $0.version > 1000 }
                Issue.record("the wait did not time out")
            } catch {
                guard case .waitTimedOut(let last, let timeout) = error else { Issue.record("got \(error)"); return }
                #expect(last == (try await window.getState()))
                #expect(timeout == .milliseconds(300))
            }
        }
    }

    @Test func waitUntilClosedAndWindowGone() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "waiting")
            async let closed: Void = daemon.client.waitUntilClosed(window, timeout: Liveness.bound(.seconds(20)))
            let other = try await daemon.connectClient()
            // The waiter subscribes before the dismissal or finds the window gone: both end the wait.
            try await other.session.dismissWindow(other.window(number: window.number ?? 0))
            await other.close()
            try await closed
            try await daemon.client.waitUntilClosed(window, timeout: Liveness.bound(.seconds(20)))
            do throws(NavSessionError) {
                _ = try await daemon.client.wait(for: window, timeout: Liveness.bound(.seconds(20))) { _ in true }
                Issue.record("waited on a closed window")
            } catch {
                guard case .windowGone = error else { Issue.record("got \(error)"); return }
            }
        }
    }

    @Test func liveWindowKeepsTheLatestState() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            let live = try await daemon.client.state(of: window)
            #expect(await live.snapshot == (try await window.getState()))
            async let next = live.next()
            try await window.switchModel("main")
            let updated = try #require(await next)
            #expect(updated.version == (try await window.getState()).version)
            try await daemon.session.dismissWindow(window)
            while await live.next() != nil {}
            #expect(await live.isClosed)
            await live.stop()
        }
    }
}
