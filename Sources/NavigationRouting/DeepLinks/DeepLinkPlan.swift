/// What a matched deep link asks for: the route that matched, its parameter values and the
/// destination with every template substituted.
///
/// It is complete enough to become one atomic batch of NavigationCore commands: choose or open
/// `destination.window`, select `destination.tab`, reset if `destination.reset`, push
/// `destination.push`, then present each of `destination.present` (with its pre-pushed screens).
/// Every screen carries its name and string params.
///
/// ```swift
/// let plan = try router.plan(for: "myapp://tabs/home/item/42?edit")
/// plan.route                         // "item"
/// plan.parameters                    // ["tab": "home", "id": "42", "edit": "true"]
/// plan.destination.push[0].params    // ["id": "42", "edit": "true"]
/// ```
public struct DeepLinkPlan: Sendable, Hashable, Codable {
    /// The name of the route that matched.
    public var route: String
    /// Canonical values of every parameter that has one (path, given query, defaults); optional
    /// query parameters that were absent are missing.
    public var parameters: [String: String]
    /// The destination, with templates replaced by values.
    public var destination: DeepLinkDestination

    /// Creates a plan.
    ///
    /// - Parameters:
    ///   - route: the matched route's name.
    ///   - parameters: the parameter values.
    ///   - destination: the substituted destination.
    public init(route: String, parameters: [String: String], destination: DeepLinkDestination) {
        self.route = route
        self.parameters = parameters
        self.destination = destination
    }
}
