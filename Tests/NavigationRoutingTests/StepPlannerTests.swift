import NavigationCore
import Testing
import NavigationRouting

struct StepPlannerTests {
    private func push(_ screen: String) -> Route { .push(screen) }
    private func sheet(_ screen: String, nav: Bool = false) -> Route { .sheet(screen, withNavigation: nav) }
    private func cover(_ screen: String, nav: Bool = false) -> Route { .cover(screen, withNavigation: nav) }

    // MARK: Brief examples

    @Test func pushesOneAtATimeFromEmpty() {
        #expect(StepPlanner.steps(from: [], to: [push("a"), push("b"), push("c")]) == [
            [], [push("a")], [push("a"), push("b")], [push("a"), push("b"), push("c")],
        ])
    }

    @Test func pushesInOneCollapsesPushesAfterS0() {
        #expect(StepPlanner.steps(from: [], to: [push("a"), push("b"), push("c")], capabilities: .pushesInOne) == [
            [], [push("a"), push("b"), push("c")],
        ])
    }

    @Test func popsAllPushesInOneStep() {
        #expect(StepPlanner.steps(from: [push("2"), push("3"), push("4")], to: []) == [
            [push("2"), push("3"), push("4")], [],
        ])
    }

    @Test func dismissesOneLayerPerStep() {
        let start = [sheet("2"), cover("3"), sheet("4")]
        #expect(StepPlanner.steps(from: start, to: []) == [
            start, [sheet("2"), cover("3")], [sheet("2")], [],
        ])
    }

    @Test func multiDismissDismissesAllLayersInOneStep() {
        let start = [sheet("2"), cover("3"), sheet("4")]
        #expect(StepPlanner.steps(from: start, to: [], capabilities: .multiDismiss) == [start, []])
    }

    @Test func relabelsPopsThenPresentsOneByOne() {
        let steps = StepPlanner.steps(
            from: [push("2"), push("3"), push("4")],
            to: [push("-2"), push("-3"), sheet("-4"), sheet("-5")])
        #expect(steps == [
            [push("-2"), push("-3"), push("4")],
            [push("-2"), push("-3")],
            [push("-2"), push("-3"), sheet("-4")],
            [push("-2"), push("-3"), sheet("-4"), sheet("-5")],
        ])
    }

    // MARK: Branches and edge cases

    @Test func identicalStartAndTargetGiveOnlyS0() {
        let routes = [push("a"), sheet("b", nav: true), push("c")]
        #expect(StepPlanner.steps(from: routes, to: routes) == [routes])
    }

    @Test func emptyToEmptyGivesOneEmptyState() {
        #expect(StepPlanner.steps(from: [], to: []) == [[]])
    }

    @Test func sameStylesDifferentScreensIsOneRelabel() {
        #expect(StepPlanner.steps(from: [push("a"), sheet("b")], to: [push("x"), sheet("y")]) == [
            [push("x"), sheet("y")],
        ])
    }

    @Test func withNavigationDifferenceIsAStyleDifference() {
        #expect(StepPlanner.steps(from: [sheet("a")], to: [sheet("a", nav: true)]) == [
            [sheet("a")], [], [sheet("a", nav: true)],
        ])
    }

    @Test func targetExtendingStartOnlyAdds() {
        #expect(StepPlanner.steps(from: [push("a")], to: [push("b"), push("c")]) == [
            [push("b")], [push("b"), push("c")],
        ])
    }

    @Test func dismissDropsTrailingPushesWithTheirPresentation() {
        let start = [push("a"), sheet("b", nav: true), push("c"), push("d"), cover("e", nav: true), push("f")]
        #expect(StepPlanner.steps(from: start, to: [push("a")]) == [
            start,
            [push("a"), sheet("b", nav: true), push("c"), push("d")],
            [push("a")],
        ])
    }

    @Test func popsAfterDismissingDownToTheFirstPresentation() {
        #expect(StepPlanner.steps(from: [push("a"), push("b"), sheet("c")], to: []) == [
            [push("a"), push("b"), sheet("c")], [push("a"), push("b")], [],
        ])
    }

    @Test func multiDismissAlsoPopsInTheSameStep() {
        #expect(StepPlanner.steps(from: [push("a"), push("b"), sheet("c")], to: [], capabilities: .multiDismiss) == [
            [push("a"), push("b"), sheet("c")], [],
        ])
    }

    @Test func keepsPresentationsBelowTheDivergenceWhenDismissing() {
        let start = [sheet("a", nav: true), push("b"), cover("c")]
        #expect(StepPlanner.steps(from: start, to: [sheet("x", nav: true), push("y")], capabilities: .multiDismiss) == [
            [sheet("x", nav: true), push("y"), cover("c")], [sheet("x", nav: true), push("y")],
        ])
    }

    @Test func pushesInOneNeverReplacesS0() {
        #expect(StepPlanner.steps(from: [], to: [push("a")], capabilities: .pushesInOne) == [[], [push("a")]])
    }

    @Test func pushesInOneMergesPushesIntoThePrecedingPresentation() {
        #expect(StepPlanner.steps(from: [], to: [sheet("a", nav: true), push("b"), push("c")], capabilities: .pushesInOne) == [
            [], [sheet("a", nav: true), push("b"), push("c")],
        ])
    }

    @Test func pushesInOneStillPresentsInItsOwnStep() {
        #expect(StepPlanner.steps(from: [], to: [push("a"), sheet("b", nav: true), push("c")], capabilities: .pushesInOne) == [
            [], [push("a")], [push("a"), sheet("b", nav: true), push("c")],
        ])
    }

    @Test func pushesInOneMergesAPushIntoTheDismissalStep() {
        #expect(StepPlanner.steps(from: [sheet("a")], to: [push("b")], capabilities: .pushesInOne) == [
            [sheet("a")], [push("b")],
        ])
    }

    @Test func withoutPushesInOneTheDismissalKeepsItsOwnStep() {
        #expect(StepPlanner.steps(from: [sheet("a")], to: [push("b")]) == [[sheet("a")], [], [push("b")]])
    }

    @Test func bothCapabilitiesTogether() {
        let steps = StepPlanner.steps(
            from: [push("a"), sheet("b"), cover("c")],
            to: [push("a"), push("x"), push("y")],
            capabilities: [.multiDismiss, .pushesInOne])
        #expect(steps == [
            [push("a"), sheet("b"), cover("c")], [push("a"), push("x"), push("y")],
        ])
    }
}
