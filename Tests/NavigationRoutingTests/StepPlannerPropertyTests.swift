import NavigationCore
import Testing
import PropertyBased
import NavigationRouting

/// Properties of ``StepPlanner`` over random route views.
struct StepPlannerPropertyTests {
    static let pool: [Route] = ["a", "b"].flatMap { screen in
        [.push(screen), .sheet(screen), .sheet(screen, withNavigation: true), .cover(screen),
         .cover(screen, withNavigation: true)]
    }
    static let routes = Gen<Int>.int(in: 0...(pool.count - 1)).map { pool[$0] }.array(of: 0...6)
    static let capabilities = Gen<Int>.int(in: 0...3).map { StepPlanner.Capabilities(rawValue: $0) }

    @Test func lastStateIsTheTarget() async {
        await propertyCheck(input: Self.routes, Self.routes, Self.capabilities) { start, target, capabilities in
            #expect(StepPlanner.steps(from: start, to: target, capabilities: capabilities).last == target)
        }
    }

    @Test func firstStateOnlyRelabelsTheStart() async {
        await propertyCheck(input: Self.routes, Self.routes, Self.capabilities) { start, target, capabilities in
            let first = StepPlanner.steps(from: start, to: target, capabilities: capabilities)[0]
            #expect(first.count == start.count)
            #expect(zip(first, start).allSatisfy { $0.hasSameStyle(as: $1) })
        }
    }

    @Test func noStateAfterS0RepeatsThePreviousOne() async {
        await propertyCheck(input: Self.routes, Self.routes, Self.capabilities) { start, target, capabilities in
            let steps = StepPlanner.steps(from: start, to: target, capabilities: capabilities)
            for index in steps.indices.dropFirst() {
                #expect(steps[index] != steps[index - 1])
            }
        }
    }

    @Test func everyStepIsALegalOneStepChange() async {
        await propertyCheck(input: Self.routes, Self.routes, Self.capabilities) { start, target, capabilities in
            let steps = StepPlanner.steps(from: start, to: target, capabilities: capabilities)
            for index in steps.indices.dropFirst() {
                let problem = Self.illegality(from: steps[index - 1], to: steps[index], capabilities)
                #expect(problem == nil, "step \(index) of \(steps)")
            }
        }
    }

    /// Why `before → after` is not one renderer update, or `nil` when it is.
    ///
    /// A step removes a suffix, then adds a suffix. Removal: pushes and, unless `multiDismiss`, at
    /// most one presentation layer (the presentation is the first removed route). Addition: one
    /// route; with `pushesInOne`, more pushes may follow it, and a step that removed something may
    /// add pushes only.
    static func illegality(from before: [Route], to after: [Route], _ capabilities: StepPlanner.Capabilities)
        -> String?
    {
        let kept = zip(before, after).prefix { $0 == $1 }.count
        let removed = before[kept...]
        let added = after[kept...]
        if !capabilities.contains(.multiDismiss) && removed.dropFirst().contains(where: \.isPresented) {
            return "removes more than one presentation layer"
        }
        if capabilities.contains(.pushesInOne) {
            if !removed.isEmpty && added.contains(where: \.isPresented) { return "removes and presents at once" }
            if added.dropFirst().contains(where: \.isPresented) { return "presents more than once" }
        } else {
            if added.count > 1 { return "adds more than one route" }
            if !added.isEmpty && !removed.isEmpty { return "removes and adds at once" }
        }
        return nil
    }
}
