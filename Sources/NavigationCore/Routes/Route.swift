/// One entry of a window's route view: a pushed screen, or a sheet or cover presenting a screen, with the
/// screen's params.
///
/// A route view is the active branch of a window flattened FlowStacks-style, e.g.
/// `[.push("list"), .push("detail", params: ["id": "42"]), .sheet("edit", withNavigation: true)]`.
/// ``NavigationWindow/routes`` reads it, and ``NavigationCommand/setRoutes(_:stack:)`` makes a window's
/// branch equal to one, so a route array read from a window can be given back.
///
/// `withNavigation` exists only for presentations: it says the presented model is a stack, so later pushes
/// land inside the presentation (the route's screen and params are then those of the stack's element 0).
/// A pushed route never carries it: the initialiser drops it, which keeps "push with navigation"
/// unrepresentable.
///
/// ```swift
/// let routes: [Route] = [.push("a", params: ["id": "1"]), .sheet("b", withNavigation: true), .cover("c")]
/// routes[1].isPresented  // true
/// ```
///
/// The JSON form is `{"style":"push","screen":"a","params":{"id":"1"}}` and
/// `{"style":"sheet","screen":"b","withNavigation":true}`; see `Route+Codable.swift`.
public struct Route: Sendable, Hashable {
    /// How a route is shown, without its screen: the `style` key of the JSON form.
    public enum Style: Sendable, Hashable, Codable {
        /// Pushed onto a stack.
        case push
        /// Presented as a sheet.
        case sheet
        /// Presented as a full-screen cover.
        case cover
        /// Presented as a custom presentation kind (a manifest's `presentationKinds`, or the built-in `browser`),
        /// under its own name: `{"style":"popover",…}`.
        case custom(String)

        /// The style's name in JSON (`push`, `sheet`, `cover` or the custom kind's name).
        public var rawValue: String {
            switch self {
            case .push: "push"
            case .sheet: "sheet"
            case .cover: "cover"
            case .custom(let name): name
            }
        }

        /// The style named `rawValue`: `push`, `sheet`, `cover`, or else a custom presentation kind when the name
        /// is one (1 to 64 ASCII letters, digits, `-`, `_`, `.`); `nil` otherwise. Whether the kind is declared
        /// is checked where the route is made (``NavigationError/unknownPresentationKind(_:)``).
        public init?(rawValue: String) {
            switch rawValue {
            case "push": self = .push
            case "sheet": self = .sheet
            case "cover": self = .cover
            default:
                guard PresentationSpec.transitionProblem(rawValue) == nil else { return nil }
                self = .custom(rawValue)
            }
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            let name = try c.decode(String.self)
            guard let style = Style(rawValue: name) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown route style '\(name.prefix(64))'")
            }
            self = style
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(rawValue)
        }
    }

    /// The route's style (push, sheet or cover).
    public let style: Style
    /// The screen name this route shows.
    public let screen: String
    /// The screen's parameters (empty when it has none).
    public let params: [String: String]
    /// Whether the presented model is a stack; always `false` for a push.
    public let withNavigation: Bool
    /// The renderer transition the route is shown with (a stack element's or a presentation's), `nil` for the
    /// default. Part of the route: giving routes back with another transition re-creates that route.
    public let transition: String?

    /// Builds a route from its parts.
    ///
    /// `withNavigation` is ignored for a push (a push never hosts its own stack).
    ///
    /// ```swift
    /// Route(style: .sheet, screen: "b", withNavigation: true) == .sheet("b", withNavigation: true)
    /// ```
    ///
    /// - Parameters:
    ///   - style: push, sheet or cover.
    ///   - screen: the screen name.
    ///   - params: the screen's parameters.
    ///   - withNavigation: whether a presentation hosts a stack.
    ///   - transition: the renderer transition (`nil` = the default).
    public init(
        style: Style, screen: String, params: [String: String] = [:], withNavigation: Bool = false,
        transition: String? = nil
    ) {
        self.style = style
        self.screen = screen
        self.params = params
        self.withNavigation = style == .push ? false : withNavigation
        self.transition = transition
    }

    /// The same route with the renderer transition `name`.
    public func with(transition name: String?) -> Route {
        Route(style: style, screen: screen, params: params, withNavigation: withNavigation, transition: name)
    }

    /// The presentation this route creates (a custom style as that kind), with its transition.
    var presentation: PresentationSpec {
        let spec: PresentationSpec
        switch style {
        case .cover: spec = .fullScreenCover(model)
        case .custom(let name): spec = .custom(name, model)
        case .push, .sheet: spec = .sheet(model)
        }
        return spec.with(transition: transition)
    }

    /// A screen pushed onto the nearest stack.
    public static func push(_ screen: String, params: [String: String] = [:]) -> Route {
        Route(style: .push, screen: screen, params: params)
    }

    /// A screen presented as a sheet; `withNavigation` when the sheet hosts a stack.
    public static func sheet(_ screen: String, params: [String: String] = [:], withNavigation: Bool = false) -> Route {
        Route(style: .sheet, screen: screen, params: params, withNavigation: withNavigation)
    }

    /// A screen presented as a full-screen cover; `withNavigation` when the cover hosts a stack.
    public static func cover(_ screen: String, params: [String: String] = [:], withNavigation: Bool = false) -> Route {
        Route(style: .cover, screen: screen, params: params, withNavigation: withNavigation)
    }

    /// Whether this route is a presentation (sheet or cover) rather than a push.
    public var isPresented: Bool { style != .push }

    /// Whether two routes have the same style: same kind and same `withNavigation`.
    ///
    /// Screens and params are not compared. The step planner uses this to find where two route views
    /// start to differ structurally.
    ///
    /// ```swift
    /// Route.push("a").hasSameStyle(as: .push("b"))                       // true
    /// Route.sheet("a").hasSameStyle(as: .sheet("a", withNavigation: true)) // false
    /// ```
    ///
    /// - Parameter other: the route to compare with.
    /// - Returns: `true` when kind and `withNavigation` are equal.
    public func hasSameStyle(as other: Route) -> Bool {
        style == other.style && withNavigation == other.withNavigation
    }

    /// The model a created route starts as: the screen, or a stack of it for `withNavigation`.
    var model: ModelSpec {
        let screen = ModelSpec.screen(screen, params: params)
        return withNavigation ? .stacked(screen) : screen
    }
}
