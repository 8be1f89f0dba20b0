import NavigationCore
import NavigationRouting
import Testing

/// Router JSON → plan → commands → one batch → the window's route view is the destination's routes.
struct DeepLinkEndToEndTests {
    private func navigate(_ window: NavigationWindow, to url: String) throws -> DeepLinkPlan {
        let router = try DeepLinkRouter(json: RouterFixture.json)
        let plan = try router.plan(for: url)
        try window.apply(try plan.commands(for: window))
        return plan
    }

    @Test func itemLinkFromAFreshWindowShowsTheDestinationRoutes() throws {
        let window = try WindowFixture.tabbed()
        let plan = try navigate(window, to: "myapp://tabs/search/item/42?source=mail")
        #expect(window.routes == plan.destination.routes)
        #expect(window.routes == [
            .push("item", params: ["id": "42", "edit": "false"]),
            .sheet("compose", params: ["from": "mail"], withNavigation: true),
            .push("preview", params: ["item": "item-42"]),
        ])
        #expect(try WindowFixture.active(in: window).params == ["item": "item-42"])
    }

    @Test func itemLinkFromADeepStateShowsTheDestinationRoutes() throws {
        let window = try WindowFixture.deepState()
        let plan = try navigate(window, to: "myapp://tabs/home/item/7?source=web&edit")
        #expect(window.routes == plan.destination.routes)
    }

    @Test func detailLinkPushesOntoTheSelectedTabAfterReset() throws {
        let window = try WindowFixture.deepState()
        let plan = try navigate(window, to: "myapp://detail/7?ref=mail")
        #expect(window.routes == plan.destination.routes)
        #expect(try WindowFixture.active(in: window).params == ["id": "7", "ref": "mail"])
    }
}
