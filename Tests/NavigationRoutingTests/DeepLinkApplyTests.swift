import NavigationCore
import NavigationRouting
import Testing

struct DeepLinkApplyTests {
    private let compose = DeepLinkPresentation(
        .sheet, withNavigation: true, root: ScreenSpec("compose", params: ["from": "mail"]),
        push: [ScreenSpec("preview", params: ["item": "item-42"])])

    // MARK: Destination shapes

    @Test func tabAndPushSelectsTheTabThenPushesOntoItsStack() throws {
        let window = try WindowFixture.tabbed()
        let plan = WindowFixture.plan(tab: "search", push: [ScreenSpec("item", params: ["id": "42"])])
        let commands = try plan.commands(for: window)
        let search = try WindowFixture.stack(ofTab: "search", in: window)
        #expect(commands == [
            BatchCommand(.tabsSelectItem("search"), from: window.rootID),
            BatchCommand(.stackAppend([StackElementSpec(.screen("item", params: ["id": "42"]))]), from: search.id),
        ])
        try window.apply(commands)
        #expect(window.routes == [.push("item", params: ["id": "42"])])
        #expect(try WindowFixture.active(in: window).params == ["id": "42"])
    }

    @Test func alreadySelectedTabIsNotSelectedAgain() throws {
        let window = try WindowFixture.tabbed(selected: "search")
        let commands = try WindowFixture.plan(tab: "search", push: [ScreenSpec("item")]).commands(for: window)
        #expect(commands.map(\.command.name) == ["stackAppend"])
    }

    @Test func stackedSheetCarriesItsPrePushedScreens() throws {
        let window = try WindowFixture.tabbed()
        try window.apply(try WindowFixture.plan(present: [compose]).commands(for: window))
        #expect(window.routes == [.sheet("compose", params: ["from": "mail"], withNavigation: true), .push("preview", params: ["item": "item-42"])])
        #expect(try WindowFixture.active(in: window).params == ["item": "item-42"])
    }

    @Test func coverPresentsAPlainScreen() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        let plan = WindowFixture.plan(present: [DeepLinkPresentation(.cover, root: ScreenSpec("player", params: ["id": "9"]))])
        try window.apply(try plan.commands(for: window))
        #expect(window.routes == [.cover("player", params: ["id": "9"])])
        #expect(try WindowFixture.active(in: window).params == ["id": "9"])
    }

    @Test func presentationsStackOnTopOfEachOther() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        let plan = WindowFixture.plan(
            push: [ScreenSpec("a")],
            present: [compose, DeepLinkPresentation(.cover, root: ScreenSpec("c"))])
        try window.apply(try plan.commands(for: window))
        #expect(window.routes == [.push("a"), .sheet("compose", params: ["from": "mail"], withNavigation: true), .push("preview", params: ["item": "item-42"]), .cover("c")])
    }

    @Test func resetFromADeepStateDismissesEverythingAndPopsToRoot() throws {
        let window = try WindowFixture.deepState()
        let plan = WindowFixture.plan(tab: "home", push: [ScreenSpec("item")])
        let commands = try plan.commands(for: window)
        #expect(commands.map(\.command.name) == ["dismissJustFromPresented", "stackDropToRoot", "stackAppend"])
        try window.apply(commands)
        #expect(window.routes == [.push("item")])
    }

    @Test func resetIntoAnotherTabLandsOnItsRootAndLeavesTheOldTabsStack() throws {
        let window = try WindowFixture.deepState()
        let search = try WindowFixture.stack(ofTab: "search", in: window)
        try window.execute(.stackAppend(.screen("old")), from: search.id)
        try window.apply(try WindowFixture.plan(tab: "search", push: [ScreenSpec("item")], present: [compose]).commands(for: window))
        #expect(window.routes == [.push("item"), .sheet("compose", params: ["from": "mail"], withNavigation: true), .push("preview", params: ["item": "item-42"])])
        try window.execute(.dismissJustFromPresented)
        try window.execute(.tabsSelectItem("home"))
        #expect(window.routes == [.push("a"), .push("b")])
    }

    @Test func resetOfAWindowAtItsBaseWithNothingToDoIsAnEmptyBatch() throws {
        let window = try WindowFixture.tabbed()
        #expect(try WindowFixture.plan(tab: "home").commands(for: window) == [])
    }

    @Test func presentationLandsOnTheVisibleBranchWhenAnotherTabCouldPresent() throws {
        let window = try NavigationWindow(
            root: .tabs([
                TabSpec(id: "home", title: "Home", model: .stacked(.screen("homeRoot"))),
                TabSpec(id: "settings", title: "Settings", model: .switched(.screen("prefs"))),
            ]))
        try window.apply(try WindowFixture.plan(present: [compose]).commands(for: window))
        #expect(window.routes == [.sheet("compose", params: ["from": "mail"], withNavigation: true), .push("preview", params: ["item": "item-42"])])
    }

    @Test func resetDismissesASheetOfASwitchedModelInsideTheSelectedTab() throws {
        let window = try NavigationWindow(
            root: .tabs([TabSpec(id: "home", title: "Home", model: .switched(.stacked(.screen("main"))))]))
        try window.execute(.stackAppend(.screen("a")))
        try window.execute(.present(.sheet(.screen("s"))))
        #expect(window.routes == [.push("a"), .sheet("s")])
        try window.apply(try WindowFixture.plan(tab: "home", push: [ScreenSpec("x")]).commands(for: window))
        #expect(window.routes == [.push("x")])
    }

    @Test func withoutResetTheDestinationLandsInsideTheOpenSheet() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.stackAppend(.screen("a")))
        try window.execute(.present(.sheet(.stacked(.screen("s")))))
        try window.apply(try WindowFixture.plan(reset: false, push: [ScreenSpec("x")]).commands(for: window))
        #expect(window.routes == [.push("a"), .sheet("s", withNavigation: true), .push("x")])
    }

    @Test func appliedBatchIsOneAtomicChange() throws {
        let window = try WindowFixture.deepState()
        let before = window.version
        let event = try window.apply(
            try WindowFixture.plan(tab: "search", push: [ScreenSpec("item")], present: [compose]).commands(for: window))
        #expect(window.version == before + 1)
        #expect(event.version == before + 1)
    }

    @Test func computingCommandsDoesNotChangeTheWindow() throws {
        let window = try WindowFixture.deepState()
        let version = window.version
        _ = try WindowFixture.plan(tab: "search", push: [ScreenSpec("item")]).commands(for: window)
        #expect(window.version == version)
        #expect(window.routes == WindowFixture.deepStateRoutes)
    }

    // MARK: Errors

    @Test func unknownTabIsAnErrorListingTheTabs() throws {
        let window = try WindowFixture.tabbed()
        let error = #expect(throws: DeepLinkApplyError.self) {
            try WindowFixture.plan(tab: "settings").commands(for: window)
        }
        #expect(error == .unknownTab(tab: "settings", tabs: window.rootID, available: ["home", "search"]))
        #expect(error?.description == "the destination selects tab 'settings' but the window's tab container (model #1) has tabs home, search")
    }

    @Test func tabWithoutATabContainerIsAnError() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        #expect(throws: DeepLinkApplyError.noTabs(tab: "home")) {
            try WindowFixture.plan(tab: "home").commands(for: window)
        }
    }

    @Test func pushWithoutAStackIsAnError() throws {
        let window = try NavigationWindow(root: .screen("solo"))
        let error = #expect(throws: DeepLinkApplyError.self) {
            try WindowFixture.plan(push: [ScreenSpec("detail"), ScreenSpec("more")]).commands(for: window)
        }
        #expect(error == .noStack(screen: "detail"))
        #expect(error?.description.hasPrefix("the destination pushes 'detail' but the window has no navigation stack") == true)
    }

    @Test func pushWithoutResetIntoASheetWithoutNavigationIsAnError() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.present(.sheet(.screen("s"))))
        #expect(throws: DeepLinkApplyError.noStack(screen: "x")) {
            try WindowFixture.plan(reset: false, push: [ScreenSpec("x")]).commands(for: window)
        }
    }

    @Test func openAlertBlocksADestinationWithoutReset() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.present(.alert(WindowFixture.alert)))
        let alert = window.activeModelID
        let error = #expect(throws: DeepLinkApplyError.self) {
            try WindowFixture.plan(reset: false, push: [ScreenSpec("x")]).commands(for: window)
        }
        #expect(error == .blockedByDialog(model: alert, kind: "alert"))
        #expect(error?.description.hasPrefix("an alert (model \(alert)) is open") == true)
    }

    @Test func openAlertIsDismissedByAReset() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.present(.alert(WindowFixture.alert)))
        try window.apply(try WindowFixture.plan(push: [ScreenSpec("x")]).commands(for: window))
        #expect(window.routes == [.push("x")])
        #expect(try WindowFixture.active(in: window).screen == "x")
    }

    @Test func closedWindowIsAnError() throws {
        let window = try WindowFixture.tabbed()
        try window.report(.windowClosed)
        #expect(throws: DeepLinkApplyError.windowClosed) {
            try WindowFixture.plan(push: [ScreenSpec("x")]).commands(for: window)
        }
    }

    @Test func prePushedScreensWithoutNavigationAreAnError() throws {
        let window = try WindowFixture.tabbed()
        let bad = DeepLinkPresentation(.sheet, root: ScreenSpec("s"), push: [ScreenSpec("t")])
        #expect(throws: DeepLinkApplyError.pushWithoutNavigation(index: 1)) {
            try WindowFixture.plan(present: [compose, bad]).commands(for: window)
        }
    }

    // MARK: Window choice

    @Test func planNamesItsSceneAndWindowPolicy() {
        let plan = DeepLinkPlan(
            route: "search", parameters: ["q": "x"],
            destination: DeepLinkDestination(window: WindowTarget(scene: "search", open: .new, params: ["query": "x"])))
        #expect(plan.targetScene == "search")
        #expect(plan.opensNewWindow)
        #expect(plan.newWindowParams == ["query": "x"])
    }
}
