import NavigationCore
import NavigationRouting
import Testing

struct PlannedStepsTests {
    private static let item = ["id": "42", "edit": "false"]

    /// The deep state, then the `item` link into the search tab; returns the routes before and after.
    private func itemLinkFromDeepState() throws -> (before: [Route], after: [Route]) {
        let window = try WindowFixture.deepState()
        let before = window.routes
        let plan = try DeepLinkRouter(json: RouterFixture.json).plan(for: "myapp://tabs/search/item/42?source=mail")
        try window.apply(try plan.commands(for: window))
        return (before, window.routes)
    }

    @Test func deepLinkFromADeepStateDismissesLayersPopsThenAdds() throws {
        let (before, after) = try itemLinkFromDeepState()
        #expect(PlannedSteps.between(before, after, capabilities: []) == [
            [.push("item", params: Self.item), .push("b"), .sheet("s1", withNavigation: true), .push("s2"), .cover("c")],
            [.push("item", params: Self.item), .push("b"), .sheet("s1", withNavigation: true), .push("s2")],
            [.push("item", params: Self.item), .push("b")],
            [.push("item", params: Self.item)],
            [.push("item", params: Self.item), .sheet("compose", params: ["from": "mail"], withNavigation: true)],
            [.push("item", params: Self.item), .sheet("compose", params: ["from": "mail"], withNavigation: true), .push("preview", params: ["item": "item-42"])],
        ])
    }

    @Test func deepLinkWithBothCapabilitiesTakesFewerSteps() throws {
        let (before, after) = try itemLinkFromDeepState()
        #expect(PlannedSteps.between(before, after, capabilities: [.multiDismiss, .pushesInOne]) == [
            [.push("item", params: Self.item), .push("b"), .sheet("s1", withNavigation: true), .push("s2"), .cover("c")],
            [.push("item", params: Self.item)],
            [.push("item", params: Self.item), .sheet("compose", params: ["from": "mail"], withNavigation: true), .push("preview", params: ["item": "item-42"])],
        ])
    }

    @Test func deepLinkThatOnlyPopsIsOneStepWithMultiDismiss() throws {
        let window = try WindowFixture.deepState()
        let before = window.routes
        try window.apply(try DeepLinkRouter(json: RouterFixture.json).plan(for: "myapp://detail/7").commands(for: window))
        #expect(PlannedSteps.between(before, window.routes, capabilities: .multiDismiss) == [])
        #expect(PlannedSteps.between(before, window.routes, capabilities: []).count == 4)
    }

    @Test func singleStepChangeHasNoPlannedSteps() {
        #expect(PlannedSteps.between([.push("a")], [.push("a"), .push("b")], capabilities: []) == [])
    }

    @Test func unchangedRoutesHaveNoPlannedSteps() {
        #expect(PlannedSteps.between([.push("a")], [.push("a")], capabilities: []) == [])
    }
}
