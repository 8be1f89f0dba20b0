import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// Every Window1 method family through ``WindowProxy``, against the real daemon.
@Suite(.timeLimit(.minutes(2)))
struct WindowProxyTests {
    /// The demo's main window, logged in: tabs home and settings, each a stack.
    static func loggedIn(_ daemon: NavSessionTestDaemon) async throws -> WindowProxy {
        let window = try await daemon.session.openWindow(scene: "main")
        try await window.switchModel("main")
        return window
    }

    @Test func stackCommands() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            let start = try await window.version
            #expect(try await window.stackAppend("detail", params: ["id": "1"]) == start + 1)
            try await window.stackAppend("profile")
            #expect(try await window.canPop)
            try await window.stackReverse()
            #expect(try await window.activeScreen == "home")
            try await window.stackSetPath(["home", "about"])
            #expect(try await window.activeScreen == "about")
            try await window.stackDropLast()
            #expect(try await window.activeScreen == "home")
            let atRoot = try await window.version
            #expect(try await window.stackDropToRoot() == atRoot, "a no-op keeps the version")
            try await window.stackSetRoot("settings", clear: true)
            #expect(try await window.activeScreen == "settings")
            #expect(try await window.canGoBack == false)
        }
    }

    @Test func setRoutesKeepsTheUnchangedPrefixAndGivingTheRoutesBackChangesNothing() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.stackAppend("detail", params: ["id": "1"])
            let detail = try await window.activeModel
            let routes = try await window.routeList()
            #expect(routes == [.push("detail", params: ["id": "1"])])
            let version = try await window.version
            #expect(try await window.setRoutes(routes) == version)
            let target = routes + [.sheet("editor", params: ["id": "1"], withNavigation: true), .push("about")]
            #expect(try await window.setRoutes(target) == version + 1)
            #expect(try await window.routeList() == target)
            #expect(try await window.getState().models.contains { $0.id == detail })
        }
    }

    @Test func setRoutesOfAnotherStackLeavesTheActiveBranch() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            let state = try await window.getState()
            let settings = try #require(state.models.first { $0.screen == "settings" }?.parent)
            try await window.setRoutes([.push("profile", params: ["edit": "1"])], stack: .id(settings))
            #expect(try await window.routeList() == [])
            try await window.tabsSelectItem("settings")
            #expect(try await window.routeList() == [.push("profile", params: ["edit": "1"])])
        }
    }

    /// Going forward: refused with an empty forward list, then re-entering what going back removed.
    @Test func goingForward() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            #expect(try await window.canGoForward == false)
            do throws(NavSessionError) {
                try await window.goForward()
                Issue.record("went forward with an empty forward list")
            } catch {
                guard case .nothingToGoForward = error else { Issue.record("got \(error)"); return }
            }
            try await window.stackAppend("detail", params: ["id": "1"])
            try await window.goBack()
            #expect(try await window.canGoForward)
            #expect(try await window.properties().canGoForward)
            try await window.goForward()
            #expect(try await window.activeScreen == "detail")
            #expect(try await window.canGoForward == false)
        }
    }

    @Test func goingBack() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            #expect(try await window.canGoBack == false)
            do throws(NavSessionError) {
                try await window.goBack()
                Issue.record("went back from a tab's root")
            } catch {
                guard case .nothingToGoBack = error else { Issue.record("got \(error)"); return }
            }
            try await window.stackAppend("detail", params: ["id": "1"])
            try await window.stackAppend("about")
            try await window.present("cover", screen: "profile")
            #expect(try await window.canGoBack)
            try await window.goBack()
            #expect(try await window.activeScreen == "about")
            try await window.goBackTo(screen: "detail")
            #expect(try await window.activeScreen == "detail")
            try await window.present("sheet+stack", screen: "editor", params: ["id": "1"])
            try await window.dismissAll()
            #expect(try await window.activeScreen == "detail")
            try await window.present("sheet", screen: "about")
            try await window.dismiss(result: .object(["id": .string("1")]))
            try await window.goBackTo(.index(0))
            #expect(try await window.activeScreen == "detail")
            try await window.goBackToRoot()
            #expect(try await window.activeScreen == "home")
            do throws(NavSessionError) {
                try await window.goBackTo(.screen("profile"))
                Issue.record("went back to a screen not on the branch")
            } catch {
                guard case .routeNotFound(let message) = error else { Issue.record("got \(error)"); return }
                #expect(message.contains("profile"))
            }
        }
    }

    @Test func presentationsAndDialogs() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.present("sheet+stack", screen: "editor", params: ["id": "7"])
            #expect(try await window.activeScreen == "editor")
            #expect(try await window.canDismiss)
            try await window.stackAppend("detail", params: ["id": "8"])
            try await window.hide()
            #expect(try await window.activeScreen == "editor")
            try await window.dismissJustFromPresented()
            #expect(try await window.activeScreen == "home")
            try await window.presentAlert(
                title: "Saved", message: "All: done",
                actions: [DialogAction(id: "ok", title: "O:K", role: .cancel), DialogAction(id: "more", title: "More")])
            #expect(try await window.title == "Saved")
            let alert = try await window.activeModel
            let state = try await window.getState()
            let alertModel = try #require(state.model(alert))
            guard case .alert(let content) = alertModel.content else {
                Issue.record("the active model is not an alert: \(alertModel)")
                return
            }
            #expect(content.actions.map(\.title) == ["O:K", "More"])
            try await window.reportActionChosen(alert, action: "ok")
            #expect(try await window.title != "Saved")
            try await window.presentConfirmationDialog(title: "logout")
            try await window.dismiss()
            try await window.present("alert", screen: "error")
            try await window.dismiss()
        }
    }

    @Test func tabsSwitchedAndModelVariants() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.tabsSelectItem("settings")
            #expect(try await window.selectedTab == "settings")
            let settingsRoot = try await window.activeModel
            try await window.tabsSelectItem("home")
            try await window.stackAppendAt(settingsRoot, screen: "profile")
            try await window.tabsSelectItem("settings")
            #expect(try await window.activeScreen == "profile")
            let profile = try await window.activeModel
            try await window.presentAt(profile, kind: "sheet", screen: "about")
            let sheet = try await window.activeModel
            try await window.dismissAt(sheet)
            try await window.presentAt(profile, kind: "cover+stack", screen: "about")
            try await window.dismissJustFromPresentedAt(try await window.activeModel)
            try await window.hideAt(profile)
            #expect(try await window.activeScreen == "settings")
            try await window.executeAt(nil, .stackAppend(.screen("about")))
            try await window.executeAt(settingsRoot, .stackDropLast(1))
            #expect(try await window.activeScreen == "settings")
            try await window.switchModel("login")
            #expect(try await window.activeScreen == "login")
        }
    }

    @Test func savedStateComesBackUnlessClearedOrNotSaved() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.stackAppend("detail", params: ["id": "1"])
            let detail = try await window.activeModel
            try await window.switchModel("login")
            try await window.switchModel("main")
            #expect(try await window.activeModel == detail, "the demo keeps main when it logs out")
            try await window.switchModel("login", saveState: true)
            let version = try await window.version
            #expect(try await window.clearSavedState("settings") == version, "nothing kept under settings: a no-op")
            try await window.clearSavedState("main")
            try await window.switchModel("main")
            #expect(try await window.activeScreen == "home")
            try await window.stackAppend("detail", params: ["id": "2"])
            try await window.switchModel("login", saveState: false)
            try await window.switchModel("main", saveState: nil, restoreState: true)
            #expect(try await window.activeScreen == "home", "main was not kept")
        }
    }

    @Test func batchesCheckAndExpectedVersion() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            let version = try await window.version
            let batch = [
                BatchCommand(.stackAppend(.screen("detail", params: ["id": "3"]))),
                BatchCommand(.present(.sheet(.stacked(.screen("editor", params: ["id": "3"])))), animated: false),
            ]
            let checked = try await window.check(batch)
            #expect(checked.version == version + 1)
            #expect(try await window.version == version, "check changes nothing")
            let applied = try await window.apply(batch, expectedVersion: version)
            #expect(applied.version == version + 1)
            #expect(applied.started.count >= 2)
            #expect(applied.started == checked.started)
            let snapshot = try await window.getState()
            #expect(snapshot.version == Int(applied.version))
            for id in applied.started { #expect(snapshot.model(id) != nil) }
            do throws(NavSessionError) {
                _ = try await window.apply([BatchCommand(.dismiss)], expectedVersion: version)
                Issue.record("applied at a stale version")
            } catch {
                guard case .versionMismatch(let message) = error else { Issue.record("got \(error)"); return }
                #expect(message.contains(String(version)))
            }
            do throws(NavSessionError) {
                _ = try await window.apply([])
                Issue.record("applied an empty batch")
            } catch {
                guard case .emptyBatch = error else { Issue.record("got \(error)"); return }
            }
        }
    }

    @Test func messagesReportsAndReading() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.sendMessage("refresh", payload: ["payload": "now"])
            let home = try await window.activeModel
            try await window.stackAppend("detail", params: ["id": "5"])
            try await window.stackAppend("profile")
            let state = try await window.getState()
            let stack = try #require(state.model(home)?.parent)
            try await window.reportPopped(stack: stack, index: 0)
            #expect(try await window.activeScreen == "home")
            try await window.present("sheet", screen: "about")
            try await window.reportDismissed(try await window.activeModel)
            let tabs = try #require(state.model(stack)?.parent)
            try await window.reportTabSelected(tabs: tabs, tab: "settings")
            #expect(try await window.selectedTab == "settings")
            let properties = try await window.properties()
            #expect(properties.scene == "main" && properties.activeScreen == "settings")
            #expect(properties.version == (try await window.version))
            #expect(properties.routes == (try await window.getRoutes()))
            #expect(properties.pendingDeepLink == "")
            #expect(try await window.routes == properties.routes)
            #expect(try await window.pendingDeepLink == "")
            #expect(try await window.getTree().contains("settings"))
            #expect(try await window.getStateJSON().contains("\"models\""))
            try await window.reportClosed()
            #expect(try await daemon.session.listWindows().isEmpty)
        }
    }

    @Test func setStateLoadsAnotherWindowsState() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let source = try await Self.loggedIn(daemon)
            try await source.tabsSelectItem("settings")
            try await source.stackAppend("profile")
            let saved = try await source.getState()
            try await source.switchModel("login")
            let version = try await source.version
            #expect(try await source.setState(saved) == version + 1)
            #expect(try await source.activeScreen == "profile")
            #expect(try await source.selectedTab == "settings")
        }
    }

    @Test func navigationErrorsAreTyped() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let waiting = try await daemon.session.openWindow(scene: "waiting")
            do throws(NavSessionError) {
                try await waiting.stackAppend("detail", params: ["id": "1"])
                Issue.record("pushed without a stack")
            } catch {
                guard case .noStack = error else { Issue.record("got \(error)"); return }
            }
            let window = try await Self.loggedIn(daemon)
            do throws(NavSessionError) {
                try await window.stackAppend("detial", params: ["id": "1"])
                Issue.record("pushed an undeclared screen")
            } catch {
                guard case .unknownScreen(let message) = error else { Issue.record("got \(error)"); return }
                #expect(message.contains("detail"))
            }
            do throws(NavSessionError) {
                try await window.stackDropLast()
                Issue.record("popped the root")
            } catch {
                guard case .alreadyAtRoot = error else { Issue.record("got \(error)"); return }
            }
            do throws(NavSessionError) {
                try await window.dismiss()
                Issue.record("dismissed nothing")
            } catch {
                guard case .nothingToDismiss = error else { Issue.record("got \(error)"); return }
            }
            do throws(NavSessionError) {
                try await window.dismissAt(ModelID(rawValue: 9999))
                Issue.record("dismissed from an unknown model")
            } catch {
                guard case .unknownModel = error else { Issue.record("got \(error)"); return }
            }
            try await daemon.session.dismissWindow(window)
            do throws(NavSessionError) {
                _ = try await window.getState()
                Issue.record("read a dismissed window")
            } catch {
                guard case .unknownObject = error else { Issue.record("got \(error)"); return }
            }
        }
    }

    @Test func paramsInPlaceTagsAndBringToFront() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.apply([BatchCommand(.stackAppend(.screen("detail", params: ["id": "1"], tag: "order")))])
            let order = try await window.model(forTag: "order")
            #expect(try await window.activeModel == order)
            #expect(try await window.activeTag == "order")
            try await window.setParams(["edit": "1"])
            #expect(try await window.getState().models.first { $0.id == order }?.params == ["id": "1", "edit": "1"])
            try await window.setTitle("Order 1", of: order)
            #expect(try await window.title == "Order 1")
            try await window.stackAppend("profile")
            try await window.bringToFront(tag: "order")
            #expect(try await window.activeModel == order)
            try await window.bringToFront(screen: "profile")
            #expect(try await window.activeScreen == "profile")
            await #expect(throws: NavSessionError.self) { try await window.model(forTag: "nope") }
            do throws(NavSessionError) {
                _ = try await window.bringToFront(screen: "about")
                Issue.record("bringToFront of an absent screen succeeded")
            } catch {
                guard case .screenNotInStack = error else { Issue.record("\(error)"); return }
            }
        }
    }

    // Custom and split containers through the client, on the demo's split scene.
    @Test func selectChildFocusesAColumnAndTheSplitCallsReachTheDaemon() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "split")
            #expect(try await window.activeScreen == "messages")
            try await window.selectChild(0)
            #expect(try await window.activeScreen == "folders")
            try await window.selectChild(.model(.tag("detail")))
            #expect(try await window.activeScreen == "message")
            try await window.reportChildSelected(container: 1, child: 4)
            #expect(try await window.activeScreen == "messages")
            try await window.setColumnVisibility(.detailOnly)
            try await window.reportCollapsed(split: 1, collapsed: true)
            let split = try #require(try await window.getState().models.first { $0.id == 1 })
            #expect(split.splitState == SplitState(visibility: .detailOnly, collapsed: true))
            #expect(try await window.canGoBack)
            await #expect(throws: NavSessionError.self) { try await window.selectChild(7) }
        }
    }
}
