/// One declared deep link: a name, a pattern over host and path, query parameters and a destination.
///
/// The parameters of a route are the pattern's placeholders plus its query parameters; names are
/// unique across both. Templates in the destination may reference any of them.
///
/// ```swift
/// let route = try DeepLinkRoute(
///     "item",
///     pattern: "tabs/:tab(enum:home|search)/item/:id(int)",
///     query: [.optional("edit", .bool, default: "false")],
///     destination: DeepLinkDestination(
///         window: WindowTarget(scene: "main"),
///         tab: "{tab}",
///         push: [ScreenSpec("item", params: ["id": "{id}", "edit": "{edit}"])]))
/// ```
///
/// JSON form (one element of the router's `routes`):
/// `{"name":"item","pattern":"tabs/:tab(enum:home|search)/item/:id(int)",
///   "query":[{"name":"edit","type":"bool","default":"false"}],"destination":{…}}`.
public struct DeepLinkRoute: Sendable, Hashable {
    /// The route's name, used in plans and error messages.
    public let name: String
    /// The parsed pattern.
    public let pattern: RoutePattern
    /// The declared query parameters, in order.
    public let query: [QueryParameter]
    /// What a match navigates to (with templates).
    public let destination: DeepLinkDestination

    /// Declares and validates a route.
    ///
    /// - Parameters:
    ///   - name: the route's name (non-empty; unique within a router).
    ///   - pattern: the pattern text, see ``RoutePattern``.
    ///   - query: the declared query parameters.
    ///   - destination: the destination with `{parameter}` templates.
    /// - Throws: ``DeepLinkDeclarationError`` naming this route and the key at fault: bad
    ///   placeholder syntax, duplicate parameter names, unknown types, defaults that do not fit,
    ///   malformed templates or templates referencing unknown parameters, empty names, pushes in a
    ///   presentation without navigation.
    public init(
        _ name: String,
        pattern: String,
        query: [QueryParameter] = [],
        destination: DeepLinkDestination
    ) throws(DeepLinkDeclarationError) {
        self.name = name
        self.pattern = try RoutePattern(pattern, route: name)
        self.query = query
        self.destination = destination
        try validate()
    }

    private func validate() throws(DeepLinkDeclarationError) {
        var known = Set(pattern.placeholders.map(\.name))
        for (index, parameter) in query.enumerated() {
            guard !parameter.name.isEmpty else {
                throw .emptyQueryName(route: name, key: "query[\(index)].name")
            }
            guard known.insert(parameter.name).inserted else {
                throw .duplicateParameter(route: name, name: parameter.name)
            }
            if case .defaulted(let value) = parameter.requirement, parameter.type.canonical(value) == nil {
                throw .invalidDefault(
                    route: name, parameter: parameter.name, value: value, expected: parameter.type.expectation)
            }
        }
        for (key, value) in destination.names where value.isEmpty {
            throw .emptyName(route: name, key: key)
        }
        for (index, presentation) in destination.present.enumerated()
        where !presentation.withNavigation && !presentation.push.isEmpty {
            throw .pushWithoutNavigation(route: name, key: "destination.present[\(index)].push")
        }
        for (key, text) in destination.templates {
            let template: Template
            do {
                template = try Template(text)
            } catch {
                throw .invalidTemplate(route: name, key: key, template: text, reason: error.reason)
            }
            if let unknown = template.references.first(where: { !known.contains($0) }) {
                throw .unknownTemplateParameter(route: name, key: key, parameter: unknown)
            }
        }
    }

    /// Resolves query values and renders the destination for a path match.
    ///
    /// - Parameters:
    ///   - captured: canonical placeholder values from the path.
    ///   - queryItems: decoded query values by key (last value already won).
    /// - Returns: the plan.
    /// - Throws: ``DeepLinkError/missingParameter(route:parameter:)`` or
    ///   ``DeepLinkError/badParameterValue(route:parameter:value:expected:)``.
    func plan(captured: [String: String], queryItems: [String: String]) throws(DeepLinkError) -> DeepLinkPlan {
        var values = captured
        for parameter in query {
            if let raw = queryItems[parameter.name] {
                guard let value = parameter.type.canonical(raw) else {
                    throw .badParameterValue(
                        route: name, parameter: parameter.name, value: raw, expected: parameter.type.expectation)
                }
                values[parameter.name] = value
            } else {
                switch parameter.requirement {
                case .required:
                    throw .missingParameter(route: name, parameter: parameter.name)
                case .defaulted(let value):
                    values[parameter.name] = parameter.type.canonical(value) ?? value
                case .optional:
                    break
                }
            }
        }
        return DeepLinkPlan(route: name, parameters: values, destination: destination.rendered(with: values))
    }
}
