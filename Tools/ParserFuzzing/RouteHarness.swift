import Foundation
import NavigationCore
import NavigationRouting
import NavigationSession

/// Route lists (`Route.list(fromJSON:)`) and Session1 `Plan` (`Session.plan(fromJSON:toJSON:capabilities:)`).
///
/// The input is `from` text, optionally a NUL byte and `to` text (without one, `to` is `[]`).
enum RouteHarness {
    static func run(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        guard let fromText = String(validating: parts[0], as: UTF8.self) else { return }
        var toText = "[]"
        if parts.count > 1 {
            guard let text = String(validating: parts[1], as: UTF8.self), !text.utf8.contains(0) else { return }
            toText = text
        }
        let from = try list(fromText)
        let to = try list(toText)
        for capabilities in [
            RendererCapabilities(), RendererCapabilities(multiDismiss: true),
            RendererCapabilities(pushesInOne: true), RendererCapabilities(multiDismiss: true, pushesInOne: true),
        ] {
            let planned: String
            do {
                planned = try Session.plan(
                    fromJSON: fromText, toJSON: toText, capabilities: capabilities, limits: Fixtures.limits)
            } catch {
                guard let from, let to else { continue }
                // Both lists decode: only the daemon's documented bounds may refuse the plan.
                let limits = Fixtures.limits
                let bound = StepPlanner.routeEntryBound(from: from, to: to, capabilities: capabilities.planner)
                guard case .limitsExceeded = error,
                    max(from.count, to.count) > limits.maxPlanRoutes || bound > limits.maxPlannedRouteEntries
                else {
                    throw InvariantViolation("routes: both lists decode and fit the limits but Plan fails: \(error)")
                }
                continue
            }
            guard let from, let to else { throw InvariantViolation("routes: Plan accepted a list Route.list rejects") }
            guard max(from.count, to.count) <= Fixtures.limits.maxPlanRoutes else {
                throw InvariantViolation("routes: Plan accepted a list longer than maxPlanRoutes")
            }
            guard !JSONString.containsNULEscape(planned), !planned.utf8.contains(0) else {
                throw InvariantViolation("routes: Plan's reply holds a NUL byte (D-Bus cannot send it)")
            }
            let states: [[Route]]
            do {
                states = try JSONDecoder().decode([[Route]].self, from: Data(planned.utf8))
            } catch {
                throw InvariantViolation("routes: Plan's output is not a JSON list of route lists: \(planned)")
            }
            guard states == StepPlanner.steps(from: from, to: to, capabilities: capabilities.planner) else {
                throw InvariantViolation("routes: Plan's JSON differs from StepPlanner.steps")
            }
            guard states.last == to else { throw InvariantViolation("routes: the plan does not end at the target") }
            let entries = states.reduce(0) { $0 + $1.count }
            guard entries <= Fixtures.limits.maxPlannedRouteEntries else {
                throw InvariantViolation("routes: Plan's reply holds \(entries) route entries, above maxPlannedRouteEntries")
            }
            for index in states.indices.dropFirst(2) where states[index] == states[index - 1] {
                throw InvariantViolation("routes: plan state \(index) repeats the one before it")
            }
        }
    }

    /// The decoded list (round-tripped through both JSON writers), or `nil` when it does not decode.
    private static func list(_ text: String) throws(InvariantViolation) -> [Route]? {
        let routes: [Route]
        do {
            routes = try Route.list(fromJSON: text)
        } catch {
            guard !error.description.isEmpty else { throw InvariantViolation("routes: an empty error message") }
            return nil
        }
        for pretty in [false, true] {
            let json = Route.json(routes, pretty: pretty)
            guard (try? Route.list(fromJSON: json)) == routes else {
                throw InvariantViolation("routes: \(routes) does not read back from its JSON \(json)")
            }
        }
        try Invariants.roundTrip(routes, "routes")
        try Invariants.noNUL(routes, "routes: the decoded list")
        return routes
    }
}
