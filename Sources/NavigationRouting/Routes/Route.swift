/// One entry of a window's route view: a pushed screen, or a sheet or cover presenting a screen.
///
/// A route view is the active branch of a window flattened FlowStacks-style, e.g.
/// `[.push("list"), .push("detail"), .sheet("edit", withNavigation: true)]`.
/// `withNavigation` exists only for presentations: it says the presented model is a stack, so
/// later pushes land inside the presentation. A pushed route never carries it, which keeps
/// "push with navigation" unrepresentable.
///
/// ```swift
/// let routes: [Route] = [.push("a"), .sheet("b", withNavigation: true), .cover("c")]
/// routes[1].isPresented  // true
/// ```
///
/// The JSON form is `{"style":"push","screen":"a"}` and
/// `{"style":"sheet","screen":"b","withNavigation":true}`; see `Route+Codable.swift`.
public enum Route: Sendable, Hashable {
    /// A screen pushed onto the nearest stack.
    case push(String)
    /// A screen presented as a sheet; `withNavigation` when the sheet hosts a stack.
    case sheet(String, withNavigation: Bool = false)
    /// A screen presented as a full-screen cover; `withNavigation` when the cover hosts a stack.
    case cover(String, withNavigation: Bool = false)

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
    public var style: Style {
        switch self {
        case .push: .push
        case .sheet: .sheet
        case .cover: .cover
        }
    }

    /// The screen name this route shows.
    public var screen: String {
        switch self {
        case .push(let screen), .sheet(let screen, _), .cover(let screen, _): screen
        }
    }

    /// Whether the presented model is a stack; always `false` for a push.
    public var withNavigation: Bool {
        switch self {
        case .push: false
        case .sheet(_, let withNavigation), .cover(_, let withNavigation): withNavigation
        }
    }

    /// Whether this route is a presentation (sheet or cover) rather than a push.
    public var isPresented: Bool { style != .push }

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
    ///   - withNavigation: whether a presentation hosts a stack.
    public init(style: Style, screen: String, withNavigation: Bool = false) {
        switch style {
        case .push: self = .push(screen)
        case .sheet: self = .sheet(screen, withNavigation: withNavigation)
        case .cover: self = .cover(screen, withNavigation: withNavigation)
        }
    }

    /// Whether two routes have the same style: same kind and same `withNavigation`.
    ///
    /// Screens are not compared. The step planner uses this to find where two route views
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
}
