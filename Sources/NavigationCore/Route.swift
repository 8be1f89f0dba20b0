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
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// Pushed onto a stack.
        case push
        /// Presented as a sheet.
        case sheet
        /// Presented as a full-screen cover.
        case cover
    }

    /// The route's style (push, sheet or cover).
    public let style: Style
    /// The screen name this route shows.
    public let screen: String
    /// The screen's parameters (empty when it has none).
    public let params: [String: String]
    /// Whether the presented model is a stack; always `false` for a push.
    public let withNavigation: Bool

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
    public init(style: Style, screen: String, params: [String: String] = [:], withNavigation: Bool = false) {
        self.style = style
        self.screen = screen
        self.params = params
        self.withNavigation = style == .push ? false : withNavigation
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
