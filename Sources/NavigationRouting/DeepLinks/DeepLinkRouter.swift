/// Turns deep-link URLs into ``DeepLinkPlan``s using declared schemes and routes.
///
/// Matching rules:
/// - The URL may be at most ``maximumURLLength`` UTF-8 bytes.
/// - Schemes compare case-insensitively.
/// - Routes are tried in declaration order against the host and path segments; the first whose
///   literals, segment count and typed placeholders all fit wins. So when two routes could both
///   match (`detail/new` and `detail/:id`), the one declared first wins.
/// - If none fits but some route matched on literals and count and failed only on a placeholder
///   value, the first such failure is reported as a bad value; otherwise the route is unknown.
/// - Query parameters are checked only for the chosen route; a bad or missing one is an error,
///   never a reason to try the next route. Undeclared query keys are ignored.
///
/// ```swift
/// let router = try DeepLinkRouter(schemes: ["myapp"], routes: [
///     try DeepLinkRoute("detail", pattern: "detail/:id(int)",
///                       destination: DeepLinkDestination(window: WindowTarget(scene: "main"),
///                                                        push: [ScreenSpec("detail", params: ["id": "{id}"])])),
/// ])
/// let plan = try router.plan(for: "MyApp://detail/42")
/// plan.destination.push[0].params["id"]  // "42"
/// ```
public struct DeepLinkRouter: Sendable, Hashable {
    /// The longest URL accepted, in UTF-8 bytes (8 KiB).
    public static let maximumURLLength = 8192

    /// The handled schemes, lowercased, in declaration order.
    public let schemes: [String]
    /// The routes, in match order.
    public let routes: [DeepLinkRoute]

    /// Creates a router.
    ///
    /// - Parameters:
    ///   - schemes: one or more URL schemes (any case; stored lowercased, duplicates dropped).
    ///   - routes: the routes in match order (names unique).
    /// - Throws: ``DeepLinkDeclarationError/noSchemes``, ``DeepLinkDeclarationError/invalidScheme(_:)``,
    ///   ``DeepLinkDeclarationError/emptyRouteName(index:)`` or
    ///   ``DeepLinkDeclarationError/duplicateRouteName(_:)``.
    public init(schemes: [String], routes: [DeepLinkRoute]) throws(DeepLinkDeclarationError) {
        guard !schemes.isEmpty else { throw .noSchemes }
        var lowered: [String] = []
        for scheme in schemes {
            guard DeepLinkURL.isValidScheme(scheme) else { throw .invalidScheme(scheme) }
            if !lowered.contains(scheme.lowercased()) { lowered.append(scheme.lowercased()) }
        }
        var names: Set<String> = []
        for (index, route) in routes.enumerated() {
            guard !route.name.isEmpty else { throw .emptyRouteName(index: index) }
            guard names.insert(route.name).inserted else { throw .duplicateRouteName(route.name) }
        }
        self.schemes = lowered
        self.routes = routes
    }

    /// Resolves a URL to a plan.
    ///
    /// - Parameter url: the URL text, e.g. `myapp://tabs/home/item/42?edit`.
    /// - Returns: the plan of the first matching route.
    /// - Throws: ``DeepLinkError``: `urlTooLong`, `malformedURL`, `wrongScheme`, `unknownRoute`,
    ///   `missingParameter` or `badParameterValue`, checked in that order.
    public func plan(for url: String) throws(DeepLinkError) -> DeepLinkPlan {
        let length = url.utf8.count
        guard length <= Self.maximumURLLength else {
            throw .urlTooLong(length: length, limit: Self.maximumURLLength)
        }
        let parsed = try DeepLinkURL(parsing: url)
        guard schemes.contains(parsed.scheme) else {
            throw .wrongScheme(scheme: parsed.scheme, expected: schemes)
        }
        var firstBadValue: DeepLinkError?
        for route in routes {
            switch route.pattern.match(parsed.segments) {
            case .matched(let captured):
                return try route.plan(captured: captured, queryItems: parsed.query)
            case .badValue(let parameter, let value, let type):
                if firstBadValue == nil {
                    firstBadValue = .badParameterValue(
                        route: route.name, parameter: parameter, value: value, expected: type.expectation)
                }
            case .noMatch:
                continue
            }
        }
        throw firstBadValue ?? .unknownRoute(path: parsed.segments.joined(separator: "/"))
    }
}
