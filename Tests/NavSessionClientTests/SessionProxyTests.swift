import NavSessionClient
import NavSessionTesting
import NavigationCore
import NavigationSession
import Testing

/// Session1 and org.freedesktop.Application through the typed proxies, against the real daemon.
@Suite(.timeLimit(.minutes(2)))
struct SessionProxyTests {
    @Test func screensAreTheManifestsDeclaredScreensInItsOrder() async throws {
        let declared = try Manifest.demo().screenNames
        let screens = try await NavSessionTestDaemon.withDaemon { daemon in try await daemon.session.screens }
        #expect(screens == declared)
        #expect(screens.contains("editor"))
    }

    @Test func windowsOpenListAndClose() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let session = daemon.session
            #expect(try await session.applicationID == "org.navsession.Demo")
            #expect(Set(try await session.scenes) == ["main", "waiting", "split"])
            let before = try await session.version
            let first = try await session.openWindow(scene: "waiting", params: ["reason": "sync"])
            let second = try await session.openWindow(scene: "waiting")
            #expect(first.number != nil && first != second)
            #expect(try await session.listWindows() == [first, second])
            #expect(try await session.windows == [first, second])
            #expect(try await session.version == before + 2)
            #expect(try await first.scene == "waiting")
            try await session.dismissWindow(first)
            #expect(try await session.listWindows() == [second])
            #expect(daemon.client.window(number: second.number ?? 0) == second)
            #expect(try daemon.client.window(second.path) == second)
        }
    }

    // Reopening closed windows.
    @Test func closedWindowsListsAClosedWindowAndReopenWindowBringsItBack() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let session = daemon.session
            let main = try await session.openWindow(scene: "main")
            try await main.switchModel("main")
            try await main.stackAppend("detail", params: ["id": "42"])
            try await session.dismissWindow(main)
            let closed = try #require(try await session.closedWindows().first)
            #expect(closed.id == "\(main.number ?? 0)" && UInt64(closed.window) == main.number)
            #expect(closed.activeScreen == "detail" && closed.scene == "main")
            let reopened = try await session.reopenWindow(closed.id)
            #expect(reopened != main)
            #expect(try await reopened.activeScreen == "detail")
            #expect(try await session.closedWindows().isEmpty)
            do throws(NavSessionError) {
                try await session.reopenWindow("99")
                Issue.record("reopening an unknown id succeeded")
            } catch {
                guard case .unknownClosedWindow = error else { Issue.record("\(error)"); return }
            }
        }
    }

    @Test func deepLinksBatchesAndTies() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let session = daemon.session
            let main = try await session.openWindow(scene: "main")
            try await main.switchModel("main")
            let linked = try await session.openURL("navsession-demo://detail/42")
            #expect(linked == main)
            #expect(try await main.activeScreen == "detail")
            let version = try await main.version
            let applied = try await session.apply([BatchCommand(.stackDropToRoot)], to: main)
            #expect(applied == version + 1)
            #expect(try await main.activeScreen == "home")
            try await session.setCloseOnExit(main, true)
            try await session.setCloseOnExit(main, false)
            let plan = try await session.plan(from: "[]", to: #"[{"style":"push","screen":"a"}]"#)
            #expect(plan.contains("\"a\""))
        }
    }

    @Test func applicationActivateOpenAndActions() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let application = daemon.client.application
            #expect(application.path == "/org/navsession/Demo")
            try await application.activate()
            #expect(try await daemon.session.listWindows().count == 1)
            try await application.activateAction("new-window", parameters: ["waiting"])
            #expect(try await daemon.session.listWindows().count == 2)
            await #expect(throws: NavSessionError.self) {
                try await application.activateAction("fly")
            }
            do throws(NavSessionError) {
                try await application.activateAction("fly")
            } catch {
                guard case .notSupported = error else { Issue.record("got \(error)"); return }
            }
            try await daemon.session.listWindows()[0].switchModel("main")
            try await application.open(["navsession-demo://settings/about"])
            #expect(try await daemon.session.listWindows()[0].activeScreen == "about")
        }
    }

    @Test func errorsAreTyped() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let session = daemon.session
            do throws(NavSessionError) {
                _ = try await session.openWindow(scene: "nowhere")
                Issue.record("opened an unknown scene")
            } catch {
                guard case .unknownScene(let message) = error else { Issue.record("got \(error)"); return }
                #expect(!message.isEmpty)
            }
            let gone = daemon.client.window(number: 99)
            do throws(NavSessionError) {
                try await session.dismissWindow(gone)
                Issue.record("dismissed a window that does not exist")
            } catch {
                guard case .unknownObject = error else { Issue.record("got \(error)"); return }
            }
            do throws(NavSessionError) {
                _ = try await session.openURL("navsession-demo://nowhere")
                Issue.record("opened an unknown route")
            } catch {
                guard case .unknownRoute = error else { Issue.record("got \(error)"); return }
            }
        }
    }
}
