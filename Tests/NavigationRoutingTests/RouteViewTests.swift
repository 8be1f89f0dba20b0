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

    @Test func customPresentationKindMapsToASheet() throws {
        let window = try NavigationWindow(
            root: .stacked(.screen("home")), configuration: WindowConfiguration(customPresentationKinds: ["popover"]))
        try window.execute(.present(.custom("popover", .stack([.screen("menu"), .screen("submenu")]))))
        #expect(window.routes == [.sheet("menu", withNavigation: true), .push("submenu")])
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
