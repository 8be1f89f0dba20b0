import NavigationCore
/// Where a deep link navigates: the window, the tab, what to push and what to present.
///
/// Applied in this order: choose or open the window; if `reset`, dismiss every presentation on the
/// active branch and pop the landing branch's stacks to their roots; select `tab` (in the window's
/// first tab container, if given); push `push` onto the landing stack; present each of `present` on
/// top of the previous one. ``DeepLinkPlan/commands(for:)`` builds exactly that as one batch.
/// In a route declaration the string values of `tab` and of every `params` are templates
/// (`"{id}"`); screen and scene names are not.
///
/// ```swift
/// DeepLinkDestination(
///     window: WindowTarget(scene: "main"),
///     tab: "{tab}",
///     push: [ScreenSpec("item", params: ["id": "{id}"])],
///     present: [DeepLinkPresentation(.sheet, withNavigation: true, root: ScreenSpec("edit"))])
/// ```
///
/// JSON form: `{"window":{…},"tab":"{tab}","reset":true,"push":[…],"present":[…]}`; only `window`
/// is required (`reset` defaults to `true`).
public struct DeepLinkDestination: Sendable, Hashable, Codable {
    /// The window to navigate in.
    public var window: WindowTarget
    /// The tab id to select, if any.
    public var tab: String?
    /// Whether to dismiss presentations and pop to the stack root before pushing.
    public var reset: Bool
    /// Screens to push onto the selected stack, in order.
    public var push: [ScreenSpec]
    /// Presentations to stack on top, in order.
    public var present: [DeepLinkPresentation]

    /// Describes a destination.
    ///
    /// - Parameters:
    ///   - window: the window to navigate in.
    ///   - tab: the tab id to select.
    ///   - reset: whether to clear presentations and pop to root first (default `true`).
    ///   - push: screens to push.
    ///   - present: presentations to stack.
    public init(
        window: WindowTarget,
        tab: String? = nil,
        reset: Bool = true,
        push: [ScreenSpec] = [],
        present: [DeepLinkPresentation] = []
    ) {
        self.window = window
        self.tab = tab
        self.reset = reset
        self.push = push
        self.present = present
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case window, tab, reset, push, present }

    /// Decodes the JSON form; every key but `window` may be omitted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        window = try container.decode(WindowTarget.self, forKey: .window)
        tab = try container.decodeIfPresent(String.self, forKey: .tab)
        reset = try container.decodeIfPresent(Bool.self, forKey: .reset) ?? true
        push = try container.decodeIfPresent([ScreenSpec].self, forKey: .push) ?? []
        present = try container.decodeIfPresent([DeepLinkPresentation].self, forKey: .present) ?? []
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    /// The route view suffix this destination adds on top of the selected stack's root:
    /// pushes, then each presentation and the screens pushed inside it.
    ///
    /// Useful as the target of ``StepPlanner`` when the destination resets the window.
    public var routes: [Route] {
        var routes = push.map { Route.push($0.screen, params: $0.params) }
        for presentation in present {
            routes.append(
                Route(
                    style: presentation.style == .sheet ? .sheet : .cover,
                    screen: presentation.root.screen,
                    params: presentation.root.params,
                    withNavigation: presentation.withNavigation))
            routes += presentation.push.map { Route.push($0.screen, params: $0.params) }
        }
        return routes
    }
}
