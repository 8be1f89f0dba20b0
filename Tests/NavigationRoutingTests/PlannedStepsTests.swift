import NavigationCore
import NavigationRouting
import Testing

struct PlannedStepsTests {
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
            [.push("item"), .push("b"), .sheet("s1", withNavigation: true), .push("s2"), .cover("c")],
            [.push("item"), .push("b"), .sheet("s1", withNavigation: true), .push("s2")],
            [.push("item"), .push("b")],
            [.push("item")],
            [.push("item"), .sheet("compose", withNavigation: true)],
            [.push("item"), .sheet("compose", withNavigation: true), .push("preview")],
        ])
    }

    @Test func deepLinkWithBothCapabilitiesTakesFewerSteps() throws {
        let (before, after) = try itemLinkFromDeepState()
        #expect(PlannedSteps.between(before, after, capabilities: [.multiDismiss, .pushesInOne]) == [
            [.push("item"), .push("b"), .sheet("s1", withNavigation: true), .push("s2"), .cover("c")],
            [.push("item")],
            [.push("item"), .sheet("compose", withNavigation: true), .push("preview")],
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
