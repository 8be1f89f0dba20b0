import NavigationCore
import NavigationRouting

/// Windows and plans shared by the route-view, plan→batch and end-to-end tests.
enum WindowFixture {
    struct MissingModel: Error {}

    /// Root tabs `home` and `search`, each a stack rooted at `homeRoot` / `searchRoot`.
    static func tabbed(selected: String = "home") throws -> NavigationWindow {
        try NavigationWindow(
            root: .tabs(
                [
                    TabSpec(id: "home", title: "Home", model: .stacked(.screen("homeRoot"))),
                    TabSpec(id: "search", title: "Search", model: .stacked(.screen("searchRoot"))),
                ], selected: selected))
    }

    /// ``tabbed(selected:)`` on `home` with `a`, `b` pushed, a stacked sheet `s1`/`s2`, a cover `c`
    /// and an alert on top: routes `[push a, push b, sheet s1 (nav), push s2, cover c]`.
    static func deepState() throws -> NavigationWindow {
        let window = try tabbed()
        try window.execute(.stackAppend(.screen("a"), .screen("b")))
        try window.execute(.present(.sheet(.stack([.screen("s1"), .screen("s2")]))))
        try window.execute(.present(.fullScreenCover(.screen("c"))))
        try window.execute(.present(.alert(alert)))
        return window
    }

    static let deepStateRoutes: [Route] = [
        .push("a"), .push("b"), .sheet("s1", withNavigation: true), .push("s2"), .cover("c"),
    ]

    static let alert = DialogContent(title: "Delete?", actions: [DialogAction(id: "ok", title: "OK")])

    /// The stack model of tab `tab` in a ``tabbed(selected:)`` window.
    static func stack(ofTab tab: String, in window: NavigationWindow) throws -> ModelState {
        guard case .tabs(let tabs, _)? = window.root?.content,
            let id = tabs.first(where: { $0.id == tab })?.model, let stack = window.model(id)
        else { throw MissingModel() }
        return stack
    }

    /// The model `window.activeModelID` names.
    static func active(in window: NavigationWindow) throws -> ModelState {
        guard let model = window.model(window.activeModelID) else { throw MissingModel() }
        return model
    }

    /// A plan for a hand-written destination in the `main` scene.
    static func plan(
        tab: String? = nil, reset: Bool = true, push: [ScreenSpec] = [], present: [DeepLinkPresentation] = []
    ) -> DeepLinkPlan {
        DeepLinkPlan(
            route: "test", parameters: [:],
            destination: DeepLinkDestination(
                window: WindowTarget(scene: "main"), tab: tab, reset: reset, push: push, present: present))
    }
}
