/// The fixed JSON form of a route: `{"style":"push","screen":"a"}`,
/// `{"style":"sheet","screen":"b","withNavigation":true}`.
///
/// Decoding: `style` and `screen` are required strings; `withNavigation` is an optional boolean
/// defaulting to `false`; any other key is an error (``RouteDecodingError/unknownKey(element:key:)``). A push may say `"withNavigation": false` but not
/// `true`. Errors are ``RouteDecodingError`` values whose `element` is the route's index in the
/// enclosing array (0 when a route is decoded on its own).
///
/// Encoding: `params` is omitted when empty; a push omits `withNavigation`, a sheet or cover always
/// writes it (`true` or `false`). `JSONEncoder` does not promise key order; `Route.json(_:pretty:)`
/// (NavigationRouting) writes the keys as `style`, `screen`, `params`, `withNavigation`.
extension Route: Codable {
    private enum CodingKeys: String, CodingKey {
        case style, screen, params, withNavigation, transition
    }

    /// Decodes one route from its JSON object.
    ///
    /// - Throws: ``RouteDecodingError`` describing the element and key at fault.
    public init(from decoder: any Decoder) throws {
        let element = decoder.codingPath.last?.intValue ?? 0
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            throw RouteDecodingError.notAnObject(element: element)
        }
        func field<T: Decodable>(_ type: T.Type, _ key: CodingKeys, expected: String) throws -> T? {
            do {
                return try container.decodeIfPresent(type, forKey: key)
            } catch {
                throw RouteDecodingError.wrongType(element: element, field: key.rawValue, expected: expected)
            }
        }
        guard let styleName = try field(String.self, .style, expected: "string") else {
            throw RouteDecodingError.missingField(element: element, field: "style")
        }
        guard let style = Style(rawValue: styleName) else {
            throw RouteDecodingError.unknownStyle(element: element, style: styleName)
        }
        guard let screen = try field(String.self, .screen, expected: "string") else {
            throw RouteDecodingError.missingField(element: element, field: "screen")
        }
        let params = try field([String: String].self, .params, expected: "JSON object of strings") ?? [:]
        let withNavigation = try field(Bool.self, .withNavigation, expected: "boolean") ?? false
        if style == .push && withNavigation {
            throw RouteDecodingError.navigationOnPush(element: element)
        }
        let transition = try field(String.self, .transition, expected: "string")
        if let transition, let problem = PresentationSpec.transitionProblem(transition) {
            throw RouteDecodingError.invalidTransition(element: element, problem: problem)
        }
        do {
            try StrictKeys.check(decoder, allowed: ["style", "screen", "params", "withNavigation", "transition"])
        } catch DecodingError.dataCorrupted(let context) {
            throw RouteDecodingError.unknownKey(element: element, detail: context.debugDescription)
        }
        self.init(style: style, screen: screen, params: params, withNavigation: withNavigation, transition: transition)
    }

    /// Encodes the route as `{"style":…,"screen":…}` plus `params` when not empty and `withNavigation` for
    /// presentations.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(style, forKey: .style)
        try container.encode(screen, forKey: .screen)
        if !params.isEmpty {
            try container.encode(params, forKey: .params)
        }
        if isPresented {
            try container.encode(withNavigation, forKey: .withNavigation)
        }
        try container.encodeIfPresent(transition, forKey: .transition)
    }
}
