import Foundation
import Testing

@testable import NavigationCore

/// Tab containers' `reselect` and `backBehavior` policies and the selection history.
struct TabPolicyTests {
    /// Tabs a, b, c, each a stack of one screen, under a switched root: tabs #2, stacks #3, #5, #7.
    func window(_ policy: TabPolicy) throws -> NavigationWindow {
        try makeWindow(.switched(.tabs(["a", "b", "c"].map {
            TabSpec(id: $0, title: $0, model: .stacked(.screen($0)))
        }, policy: policy)))
    }

    func selected(_ window: NavigationWindow) -> String? { window.model(2)?.selectedTab }

    @Test func reselectingWithPopToRootPopsTheTabsStack() throws {
        let window = try window(TabPolicy(reselect: .popToRoot))
        try window.execute(.stackAppend(detail, .screen("more")))
        let event = try window.execute(.tabsSelectItem("a"))
        #expect(screens(of: 3, in: window) == ["a"])
        #expect(event.steps == [.pop(stack: 3, models: [10, 9])])
    }

    /// React Navigation's `initialRoute`: back goes to the tab the container started with, not the first.
    @Test func initialRouteGoesBackToTheTabTheContainerStartedWith() throws {
        let window = try makeWindow(.switched(.tabs(["a", "b", "c"].map {
            TabSpec(id: $0, title: $0, model: .stacked(.screen($0)))
        }, selected: "b", policy: TabPolicy(backBehavior: .initialRoute))))
        #expect(!window.abilities.canGoBack)
        try window.execute(.tabsSelectItem("a"))
        try window.execute(.tabsSelectItem("c"))
        try window.execute(.goBack(result: nil))
        #expect(selected(window) == "b")
        #expect(!window.abilities.canGoBack)
        // It survives a snapshot.
        let json = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: json))
        try restored.execute(.tabsSelectItem("a"))
        try restored.execute(.goBack(result: nil))
        #expect(restored.model(2)?.selectedTab == "b")
    }

    /// React Navigation's `fullHistory`: every visit, repeats included, back takes the newest off.
    @Test func fullHistoryGoesBackThroughEveryVisitIncludingRepeats() throws {
        let window = try window(TabPolicy(backBehavior: .fullHistory))
        for tab in ["b", "a", "b", "c"] { try window.execute(.tabsSelectItem(tab)) }
        var visited: [String?] = []
        while window.abilities.canGoBack {
            try window.execute(.goBack(result: nil))
            visited.append(selected(window))
        }
        #expect(visited == ["b", "a", "b", "a"])
    }

    @Test func fullHistoryIsBounded() throws {
        let window = try window(TabPolicy(backBehavior: .fullHistory))
        for index in 0..<(TabState.maxFullHistory * 2) { try window.execute(.tabsSelectItem(index % 2 == 0 ? "b" : "a")) }
        #expect(window.model(2)?.tabState?.history.count == TabState.maxFullHistory)
        let json = try JSONEncoder().encode(window.snapshot())
        _ = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: json))
    }

    @Test func reselectingWithoutAPolicyChangesNothing() throws {
        let window = try window(.default)
        try window.execute(.stackAppend(detail))
        let version = window.version
        try window.execute(.tabsSelectItem("a"))
        #expect(window.version == version)
        #expect(screens(of: 3, in: window) == ["a", "detail"])
    }

    @Test func reselectingATabAtItsRootIsANoOp() throws {
        let window = try window(TabPolicy(reselect: .popToRoot))
        let event = try window.execute(.tabsSelectItem("a"))
        #expect(event.version == 0)
    }

    @Test func aSelectedTabReportOfTheSelectedTabAppliesThePolicy() throws {
        let window = try window(TabPolicy(reselect: .popToRoot))
        try window.execute(.stackAppend(detail))
        try window.report(.selectedTab(tabs: 2, tab: "a"))
        #expect(screens(of: 3, in: window) == ["a"])
    }

    @Test func goBackAtATabsRootFollowsTheHistory() throws {
        let window = try window(TabPolicy(backBehavior: .history))
        try window.execute(.tabsSelectItem("c"))
        try window.execute(.tabsSelectItem("b"))
        #expect(window.model(2)?.tabState?.history == ["a", "c"])
        #expect(window.abilities.canGoBack)
        try window.execute(.goBack)
        #expect(selected(window) == "c")
        try window.execute(.goBack)
        #expect(selected(window) == "a")
        #expect(!window.abilities.canGoBack)
    }

    @Test func theHistoryHoldsEachTabOnce() throws {
        let window = try window(TabPolicy(backBehavior: .history))
        for tab in ["b", "a", "b", "c", "a"] { try window.execute(.tabsSelectItem(tab)) }
        #expect(window.model(2)?.tabState?.history == ["b", "c"])
    }

    @Test func goBackPopsTheTabsStackBeforeSwitchingTabs() throws {
        let window = try window(TabPolicy(backBehavior: .history))
        try window.execute(.tabsSelectItem("b"))
        try window.execute(.stackAppend(detail))
        try window.execute(.goBack)
        #expect(selected(window) == "b")
        try window.execute(.goBack)
        #expect(selected(window) == "a")
    }

    @Test func goBackInOrderSelectsThePreviousTab() throws {
        let window = try window(TabPolicy(backBehavior: .order))
        try window.execute(.tabsSelectItem("c"))
        try window.execute(.goBack)
        #expect(selected(window) == "b")
    }

    @Test func goBackToTheFirstTab() throws {
        let window = try window(TabPolicy(backBehavior: .firstTab))
        try window.execute(.tabsSelectItem("c"))
        try window.execute(.goBack)
        #expect(selected(window) == "a")
        #expect(!window.abilities.canGoBack)
    }

    @Test func aRolledBackSelectionRestoresTheHistory() throws {
        let window = try window(TabPolicy(backBehavior: .history))
        try window.execute(.tabsSelectItem("b"))
        expectRejected(window, .batchCommandFailed(index: 1, .unknownTab(tabs: 2, tab: "x", available: ["a", "b", "c"]))) {
            () throws(NavigationError) in try window.apply([BatchCommand(.tabsSelectItem("c")), BatchCommand(.tabsSelectItem("x"))])
        }
        #expect(window.model(2)?.tabState?.history == ["a"])
    }

    @Test func thePolicyAndHistorySurviveASnapshot() throws {
        let window = try window(TabPolicy(reselect: .popToRoot, backBehavior: .history))
        try window.execute(.tabsSelectItem("c"))
        let restored = try NavigationWindow(snapshot: try roundTrip(window.snapshot()))
        #expect(restored.model(2)?.tabState == TabState(policy: TabPolicy(reselect: .popToRoot, backBehavior: .history), history: ["a"]))
        try restored.execute(.goBack)
        #expect(restored.model(2)?.selectedTab == "a")
    }

    @Test func aSnapshotWithAForeignTabInTheHistoryIsRefused() throws {
        let window = try window(TabPolicy(backBehavior: .history))
        try window.execute(.tabsSelectItem("c"))
        let json = String(decoding: try JSONEncoder().encode(window.snapshot()), as: UTF8.self)
            .replacingOccurrences(of: #""tabHistory":["a"]"#, with: #""tabHistory":["zz"]"#)
        #expect(throws: NavigationError.self) { try JSONDecoder().decode(WindowSnapshot.self, from: Data(json.utf8)) }
    }

    @Test func theSpecJSONCarriesThePolicyAndRefusesUnknownValues() throws {
        let json = #"{"kind":"tabs","tabs":[{"id":"a","title":"A","model":{"screen":"a"}}],"reselect":"popToRoot","backBehavior":"order"}"#
        let spec = try JSONDecoder().decode(ModelSpec.self, from: Data(json.utf8))
        #expect(spec.tabPolicy == TabPolicy(reselect: .popToRoot, backBehavior: .order))
        #expect(try roundTrip(spec) == spec)
        let bad = json.replacingOccurrences(of: "\"order\"", with: "\"sideways\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ModelSpec.self, from: Data(bad.utf8)) }
    }
}
