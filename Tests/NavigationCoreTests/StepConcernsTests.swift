import Testing

@testable import NavigationCore

/// Which steps concern one model (what a follower of that model is sent).
struct StepConcernsTests {
    @Test func aPushConcernsItsStackAndThePushedModelsOnly() {
        let step = NavigationStep.push(stack: 7, models: [12, 13])
        #expect(step.concerns(7) && step.concerns(12) && step.concerns(13))
        #expect(!step.concerns(6))
    }

    @Test func aPresentationConcernsItsPresenterAndThePresentedModel() {
        let step = NavigationStep.present(presenter: 4, model: 9, style: .sheet(detents: []), nested: [])
        #expect(step.concerns(4) && step.concerns(9) && !step.concerns(5))
    }

    @Test func anUpdateConcernsOnlyTheUpdatedModel() {
        #expect(NavigationStep.update(model: 3).concerns(3))
        #expect(!NavigationStep.update(model: 3).concerns(4))
    }

    @Test func aChangeOfOneStackDoesNotConcernTheScreenBelowIt() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.execute(.stackAppend(detail))
        // 1 is the stack, 2 its root screen: the push is the stack's change, not the root's.
        #expect(event.steps.contains { $0.concerns(1) })
        #expect(!event.steps.contains { $0.concerns(2) })
    }
}
