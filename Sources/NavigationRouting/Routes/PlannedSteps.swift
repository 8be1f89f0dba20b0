import NavigationCore

/// The one-step states a limited renderer needs for a change of a window's route view.
///
/// The session service calls ``between(_:_:capabilities:)`` with `window.routes` before and after
/// a deep link or a batch and puts the result in its change signal. A renderer that can show the
/// change in one update (or the change needs only one step anyway) gets `[]` and just renders the
/// new state; otherwise it animates the states in order.
///
/// ```swift
/// PlannedSteps.between([], [.push("a")], capabilities: [])             // [] (one step)
/// PlannedSteps.between([], [.push("a"), .push("b")], capabilities: []) // [[], [a], [a, b]]
/// ```
public enum PlannedSteps {
    /// The planner's states from `before` to `after` when the move takes more than one step.
    ///
    /// The states are bounded: when planning with `capabilities` could produce more than
    /// `maxRouteEntries` route entries in all (the sum of the states' lengths, which grows with the
    /// square of the change), pushes are combined as with ``StepPlanner/Capabilities/pushesInOne``;
    /// when even that could exceed the bound, the result is `[]` and the renderer shows the new state
    /// directly. The bound is checked before planning, so planning costs at most `maxRouteEntries`.
    ///
    /// - Parameters:
    ///   - before: the route view before the change.
    ///   - after: the route view after it.
    ///   - capabilities: what the renderer can do in one update.
    ///   - maxRouteEntries: the most route entries the states may hold together.
    /// - Returns: ``StepPlanner/steps(from:to:capabilities:)`` when it returns more than two states
    ///   (`S0` plus more than one step), including `S0`; otherwise `[]`.
    public static func between(
        _ before: [Route], _ after: [Route], capabilities: StepPlanner.Capabilities,
        maxRouteEntries: Int = .max
    ) -> [[Route]] {
        guard let capabilities = StepPlanner.boundedCapabilities(
            from: before, to: after, capabilities: capabilities, maxRouteEntries: maxRouteEntries)
        else { return [] }
        let states = StepPlanner.steps(from: before, to: after, capabilities: capabilities)
        return states.count > 2 ? states : []
    }
}
