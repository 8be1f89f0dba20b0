import NavigationCore
import NavigationRouting
import Testing

struct RouteViewTests {
    @Test func plainScreenRootHasNoRoutes() throws {
        let window = try NavigationWindow(root: .screen("solo"))
        #expect(window.routes == [])
    }

    @Test func stackRootIsNotARouteAndPushesAre() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.stackAppend(.screen("list"), .screen("detail")))
        #expect(window.routes == [.push("list"), .push("detail")])
    }

    @Test func onlyTheSelectedTabBranchIsRouted() throws {
        let window = try WindowFixture.tabbed()
        try window.execute(.stackAppend(.screen("a")))
        try window.execute(.tabsSelectItem("search"))
        try window.execute(.stackAppend(.screen("b"), .screen("c")))
        #expect(window.routes == [.push("b"), .push("c")])
    }

    @Test func switchedRootFollowsTheSwitchedModel() throws {
        let window = try NavigationWindow(root: .switched(.screen("login")))
        try window.execute(.switchModel(.stack([.screen("main"), .screen("inbox")])))
        #expect(window.routes == [.push("inbox")])
    }

    @Test func presentationOfTheSwitchedModelIsARoute() throws {
        let window = try NavigationWindow(root: .switched(.stacked(.screen("main"))))
        try window.execute(.stackAppend(.screen("inbox")))
        try window.execute(.present(.sheet(.screen("help"))))
        #expect(window.routes == [.push("inbox"), .sheet("help")])
    }

    @Test func stackedSheetNamesItsRootAndListsItsPushes() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.stackAppend(.screen("a")))
        try window.execute(.present(.sheet(.stack([.screen("compose"), .screen("preview")]), detents: ["medium"])))
        try window.execute(.stackAppend(.screen("send")))
        #expect(window.routes == [.push("a"), .sheet("compose", withNavigation: true), .push("preview"), .push("send")])
    }

    @Test func coverOverASheetFollowsIt() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.present(.sheet(.screen("s"))))
        try window.execute(.present(.fullScreenCover(.stacked(.screen("c")))))
        #expect(window.routes == [.sheet("s"), .cover("c", withNavigation: true)])
    }

    @Test func alertOnTopIsNotARoute() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.present(.sheet(.screen("s"))))
        try window.execute(.present(.alert(WindowFixture.alert)))
        #expect(window.routes == [.sheet("s")])
    }

    @Test func confirmationDialogAnchoredOnAPushedScreenIsNotARoute() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.stackAppend(.screen("a")))
        try window.execute(.present(.confirmationDialog(WindowFixture.alert, sourceID: "delete")))
        #expect(window.routes == [.push("a")])
    }

    @Test func customPresentationKindKeepsItsKind() throws {
        let window = try NavigationWindow(
            root: .stacked(.screen("home")), configuration: WindowConfiguration(customPresentationKinds: ["popover"]))
        try window.execute(.present(.custom("popover", .stack([.screen("menu"), .screen("submenu")]))))
        #expect(window.routes == [Route(style: .custom("popover"), screen: "menu", withNavigation: true), .push("submenu")])
        #expect(Route.json(window.routes) == #"[{"style":"popover","screen":"menu","withNavigation":true},{"style":"push","screen":"submenu"}]"#)
    }

    @Test func aCustomKindRouteGivenBackPresentsThatKind() throws {
        let window = try NavigationWindow(
            root: .stacked(.screen("home")), configuration: WindowConfiguration(customPresentationKinds: ["popover"]))
        try window.execute(.setRoutes([Route(style: .custom("popover"), screen: "menu", transition: "fade")]))
        #expect(window.routes == [Route(style: .custom("popover"), screen: "menu", transition: "fade")])
        let menu = try #require(window.snapshot().models.first { $0.screen == "menu" })
        #expect(menu.attachment == .presented(.custom("popover")) && menu.transition == "fade")
    }

    @Test func anUndeclaredCustomKindRouteIsRefusedNamingTheRoute() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        #expect(throws: NavigationError.routeFailed(index: 0, .unknownPresentationKind("popover"))) {
            try window.execute(.setRoutes([Route(style: .custom("popover"), screen: "menu")]))
        }
    }

    @Test func aPushedElementsTransitionIsInItsRouteAndTakenBack() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(.stackAppend(.screen("a"), transition: "zoom"))
        #expect(window.routes == [Route(style: .push, screen: "a", transition: "zoom")])
        let version = window.version
        try window.execute(.setRoutes(window.routes))
        #expect(window.version == version, "the same routes change nothing")
        try window.execute(.setRoutes([.push("a")]))
        #expect(window.version == version, "a route without a transition matches whatever transition it has")
        try window.execute(.setRoutes([Route(style: .push, screen: "a", transition: "fade")]))
        #expect(window.routes == [Route(style: .push, screen: "a", transition: "fade")] && window.version == version + 1)
    }

    @Test func presentedNonStackContainerGivesItsOwnScreenWithoutNavigation() throws {
        let window = try NavigationWindow(root: .stacked(.screen("home")))
        try window.execute(
            .present(.sheet(.tabs([TabSpec(id: "one", title: "One", model: .screen("first"))], screen: "picker"))))
        #expect(window.routes == [.sheet("picker")])
    }

    @Test func deepStateFlattensEveryLayerInOrder() throws {
        let window = try WindowFixture.deepState()
        #expect(window.routes == WindowFixture.deepStateRoutes)
    }
}
