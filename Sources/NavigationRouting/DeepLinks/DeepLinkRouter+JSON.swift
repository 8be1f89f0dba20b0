import FoundationEssentials
import NavigationCore

extension DeepLinkRouter {
    /// Reads route declarations from JSON, as found in an application's manifest.
    ///
    /// The JSON describes exactly what the Swift initializers do:
    ///
    /// ```json
    /// {
    ///   "schemes": ["myapp"],
    ///   "routes": [
    ///     {"name": "item", "pattern": "tabs/:tab(enum:home|search)/item/:id(int)",
    ///      "query": [{"name": "edit", "type": "bool", "default": "false"}, {"name": "ref", "required": true}],
    ///      "destination": {"window": {"scene": "main"}, "tab": "{tab}",
    ///                      "push": [{"screen": "item", "params": {"id": "{id}"}}]}}
    ///   ]
    /// }
    /// ```
    ///
    /// - Parameter json: the JSON text.
    /// - Throws: ``DeepLinkDeclarationError/invalidJSON(detail:)`` when the text is not JSON or a key
    ///   has the wrong shape (the detail names the key path), or any validation error of
    ///   ``init(schemes:routes:)`` and ``DeepLinkRoute``.
    public init(json: String) throws(DeepLinkDeclarationError) {
        let document: RouterDocument
        do {
            document = try JSONDecoder().decode(RouterDocument.self, from: Data(json.utf8))
        } catch {
            throw .invalidJSON(detail: Self.describe(error))
        }
        var routes: [DeepLinkRoute] = []
        for route in document.routes {
            routes.append(try route.declaration())
        }
        try self.init(schemes: document.schemes, routes: routes)
    }

    private static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.hasPrefix(".") ? String(keys.dropFirst()) : keys
        }
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing key '\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)'"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "'\(path(context))' must be \(typeName(type))"
        case .dataCorrupted(let context):
            let where_ = path(context)
            return where_.isEmpty ? "not valid JSON" : "'\(where_)': \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch String(describing: type) {
        case "String": "a string"
        case "Bool": "a boolean"
        case let name where name.hasPrefix("Array"): "an array"
        case let name where name.hasPrefix("Dictionary"): "an object"
        case let name: name
        }
    }
}

/// The JSON shape of a router: `{"schemes":[…],"routes":[…]}`.
private struct RouterDocument: Decodable {
    var schemes: [String]
    var routes: [RouteDocument]

    private enum CodingKeys: String, CodingKey, CaseIterable { case schemes, routes }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemes = try c.decode([String].self, forKey: .schemes)
        routes = try c.decode([RouteDocument].self, forKey: .routes)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }
}

/// The JSON shape of one route, validated by ``declaration()``.
private struct RouteDocument: Decodable {
    struct Query: Decodable {
        var name: String
        var type: String?
        var required: Bool?
        var `default`: String?

        private enum CodingKeys: String, CodingKey, CaseIterable { case name, type, required, `default` }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            type = try c.decodeIfPresent(String.self, forKey: .type)
            required = try c.decodeIfPresent(Bool.self, forKey: .required)
            `default` = try c.decodeIfPresent(String.self, forKey: .default)
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        }
    }

    var name: String
    var pattern: String
    var query: [Query]?
    var destination: DeepLinkDestination

    private enum CodingKeys: String, CodingKey, CaseIterable { case name, pattern, query, destination }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        pattern = try c.decode(String.self, forKey: .pattern)
        query = try c.decodeIfPresent([Query].self, forKey: .query)
        destination = try c.decode(DeepLinkDestination.self, forKey: .destination)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    func declaration() throws(DeepLinkDeclarationError) -> DeepLinkRoute {
        var parameters: [QueryParameter] = []
        for item in query ?? [] {
            let typeText = item.type ?? "string"
            guard let type = ParameterType(parsing: typeText) else {
                throw .unknownType(route: name, parameter: item.name, type: typeText)
            }
            if item.required == true {
                guard item.default == nil else { throw .requiredWithDefault(route: name, parameter: item.name) }
                parameters.append(.required(item.name, type))
            } else {
                parameters.append(.optional(item.name, type, default: item.default))
            }
        }
        return try DeepLinkRoute(name, pattern: pattern, query: parameters, destination: destination)
    }
}
