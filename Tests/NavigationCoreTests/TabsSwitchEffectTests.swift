import Testing

@testable import NavigationCore

struct TabsSwitchEffectTests {
    let twoTabs = ModelSpec.tabs([
        TabSpec(id: "home", title: "Home", icon: "house", model: .stacked(home)),
        TabSpec(id: "settings", title: "Settings", icon: "gear", model: .stacked(.screen("settings"))),
    ])

    @Test func tabsSelectItemSelectsTheTabAndMovesTheActiveModel() throws {
        let window = try makeWindow(twoTabs)
        #expect(window.activeModelID == 3)
        let event = try window.execute(.tabsSelectItem("settings"))
        #expect(window.model(1)?.selectedTab == "settings")
        #expect(event.activeModel == 5 && event.modified == [1])
    }

    @Test func tabsSelectItemWithAnUnknownIdFails() throws {
        let window = try makeWindow(twoTabs)
        expectRejected(window, .unknownTab(tabs: 1, tab: "nope", available: ["home", "settings"])) { () throws(NavigationError) in
            try window.execute(.tabsSelectItem("nope"))
        }
    }

    @Test func tabsSelectItemWithoutTabsFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .noTabs(from: 2)) { () throws(NavigationError) in try window.execute(.tabsSelectItem("a")) }
    }

    @Test func tabsSpecWithDuplicateIdsIsRejected() throws {
        let error = navigationError { () throws(NavigationError) in
            _ = try NavigationWindow(root: .tabs([TabSpec(id: "a", title: "A", model: home), TabSpec(id: "a", title: "B", model: detail)]))
        }
        #expect(error == .invalidSpec("tabs \"tabs\" repeats tab id \"a\""))
    }

    @Test func tabsSpecSelectingAnUnknownTabIsRejected() throws {
        let error = navigationError { () throws(NavigationError) in
            _ = try NavigationWindow(root: .tabs([TabSpec(id: "a", title: "A", model: home)], selected: "b"))
        }
        #expect(error == .invalidSpec("tabs \"tabs\" selects unknown tab \"b\""))
    }

    @Test func switchModelReplacesTheSwitchedSubtree() throws {
        let window = try makeWindow(.switched(.stacked(.screen("login"))))
        let event = try window.execute(.switchModel(twoTabs))
        #expect(event.finished == [2, 3])
        #expect(event.started == [4, 5, 6, 7, 8])
        #expect(window.model(1)?.switchedModel == 4)
    }

    @Test func switchModelWithoutASwitchedContainerFails() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .noSwitchedModel(from: 2)) { () throws(NavigationError) in
            try window.execute(.switchModel(detail))
        }
    }

    @Test func effectsAreQueuedInOrderUntilDrained() throws {
        let window = try makeWindow(home)
        try window.execute(.openWindow(scene: "viewer", params: ["file": "a.txt"]))
        let event = try window.execute(.openURL("https://example.org/x"))
        try window.execute(.dismissWindow(id: nil))
        try window.execute(.trigger(name: "haptic", payload: "success"))
        #expect(event.effects == [QueuedEffect(effect: .openURL("https://example.org/x"), source: 1, version: 2)])
        #expect(
            window.drainEffects().map(\.effect) == [
                .openWindow(scene: "viewer", params: ["file": "a.txt"]), .openURL("https://example.org/x"),
                .dismissWindow(id: nil), .trigger(name: "haptic", payload: "success"),
            ])
        #expect(window.drainEffects().isEmpty)
    }

    @Test(arguments: ["", "no scheme", "://x", "1http://x", "mailto:", "http://a b"])
    func openURLWithABadURLFails(url: String) throws {
        let window = try makeWindow(home)
        expectRejected(window, .invalidURL(url)) { () throws(NavigationError) in try window.execute(.openURL(url)) }
    }

    @Test func openWindowWithAnEmptySceneFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .invalidEffect("openWindow needs a scene name")) { () throws(NavigationError) in
            try window.execute(.openWindow(scene: "", params: [:]))
        }
    }

    @Test func dismissWindowWithAnEmptyIdFails() throws {
        let window = try makeWindow(home)
        expectRejected(window, .invalidEffect("dismissWindow needs a non-empty window id")) { () throws(NavigationError) in
            try window.execute(.dismissWindow(id: ""))
        }
    }

    @Test func effectsAreNotStateButStillCountAsAChange() throws {
        let window = try makeWindow(home)
        let before = window.snapshot().models
        try window.execute(.openURL("myapp://detail/1"))
        #expect(window.snapshot().models == before)
        #expect(window.version == 1)
    }
}
