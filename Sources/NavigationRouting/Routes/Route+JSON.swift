import FoundationEssentials
import NavigationCore

extension Route {
    /// Reads a JSON array of routes, e.g. `[{"style":"push","screen":"a"}]`.
    ///
    /// An empty array is valid. See the `Codable` conformance for the exact form.
    ///
    /// ```swift
    /// let routes = try Route.list(fromJSON: #"[{"style":"sheet","screen":"b","withNavigation":true}]"#)
    /// // [.sheet("b", withNavigation: true)]
    /// ```
    ///
    /// - Parameter json: the JSON text.
    /// - Returns: the routes in order.
    /// - Throws: ``RouteDecodingError`` saying what is wrong and in which element.
    public static func list(fromJSON json: String) throws(RouteDecodingError) -> [Route] {
        guard !JSONString.containsNULEscape(json) else {
            throw .malformedJSON(detail: "\\u0000: screen names cannot hold a NUL byte")
        }
        do {
            return try JSONDecoder().decode([Route].self, from: Data(json.utf8))
        } catch let error as RouteDecodingError {
            throw error
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw .notAnArray
        } catch DecodingError.dataCorrupted(let context) {
            throw .malformedJSON(detail: Self.detail(of: context))
        } catch {
            throw .malformedJSON(detail: String(describing: error))
        }
    }

    /// Writes routes as a JSON array in the fixed form.
    ///
    /// Keys come in the order `style`, `screen`, `params`, `withNavigation`, `transition`; `params` (its keys
    /// sorted) is omitted when empty, a push omits `withNavigation`, and `transition` is written when there is one.
    /// Compact output is one line with no spaces, e.g. `[{"style":"push","screen":"a"}]`;
    /// `pretty` puts each route on its own indented line. Slashes and non-ASCII text are not escaped.
    ///
    /// - Parameters:
    ///   - routes: the routes to write.
    ///   - pretty: whether to indent the output.
    /// - Returns: the JSON text.
    public static func json(_ routes: [Route], pretty: Bool = false) -> String {
        array(routes.map(\.jsonObject), pretty: pretty, indent: "")
    }

    /// Writes a list of route lists (e.g. planner states) as one JSON array of arrays.
    ///
    /// - Parameters:
    ///   - states: the route lists to write, in order.
    ///   - pretty: whether to indent the output (one route per line).
    /// - Returns: the JSON text, e.g. `[[],[{"style":"push","screen":"a"}]]`.
    public static func json(states: [[Route]], pretty: Bool = false) -> String {
        array(states.map { array($0.map(\.jsonObject), pretty: pretty, indent: "  ") }, pretty: pretty, indent: "")
    }

    /// The route as a compact JSON object.
    private var jsonObject: String {
        var text = #"{"style":"\#(style.rawValue)","screen":\#(JSONString.literal(screen))"#
        if !params.isEmpty {
            text += #","params":"# + JSONString.object(params)
        }
        if isPresented { text += #","withNavigation":\#(withNavigation)"# }
        if let transition { text += #","transition":"# + JSONString.literal(transition) }
        return text + "}"
    }

    private static func array(_ items: [String], pretty: Bool, indent: String) -> String {
        guard pretty, !items.isEmpty else { return "[" + items.joined(separator: ",") + "]" }
        let inner = indent + "  "
        return "[\n" + items.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent + "]"
    }


    private static func detail(of context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError {
            return "\(context.debugDescription) (\(underlying))"
        }
        return context.debugDescription
    }
}
