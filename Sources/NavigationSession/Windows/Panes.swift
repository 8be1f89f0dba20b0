import NavigationCore

/// How a width class the renderer reports (Window1 `ReportWidthClass`) turns a plain stack into panes, as Jetpack
/// Navigation 3's scene strategies and Material's adaptive layouts do: the stack's top elements side by side.
///
/// Manifest, on a scene: `"panes": {"strategy": "list-detail", "stack": "messages"}` (`stack`: a tag; default the
/// stack the window's active model is in, under any presentation).
public struct PanesDeclaration: Hashable, Sendable, Codable {
    /// A layout: how many of the stack's top elements each width class shows.
    public enum Strategy: String, Hashable, Sendable, Codable, CaseIterable {
        /// A list and its detail: one pane, two when expanded.
        case listDetail = "list-detail"
        /// A main pane and a supporting one: one pane, two when expanded.
        case supportingPane = "supporting-pane"
        /// Up to three columns: one pane compact, two medium, three expanded.
        case threeColumn = "three-column"

        /// How many of the stack's top elements are on screen at `width`.
        public func panes(at width: WidthClass) -> Int {
            switch (self, width) {
            case (_, .compact): 1
            case (.threeColumn, .medium): 2
            case (_, .medium): 1
            case (.threeColumn, .expanded): 3
            case (_, .expanded): 2
            }
        }
    }

    /// The layout.
    public var strategy: Strategy
    /// The tag of the stack shown in panes; `nil`: the stack the active model is in.
    public var stack: String?

    /// Declares panes.
    public init(strategy: Strategy, stack: String? = nil) {
        self.strategy = strategy
        self.stack = stack
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case strategy, stack }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        strategy = try c.decode(Strategy.self, forKey: .strategy)
        stack = try c.decodeIfPresent(String.self, forKey: .stack)
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }
}

/// The width a renderer has for a window, in Material's window size classes (compact < 600 dp ≤ medium < 840 dp ≤
/// expanded).
public enum WidthClass: String, Hashable, Sendable, CaseIterable {
    case compact, medium, expanded
}

extension Session {
    /// Window `number`'s renderer has `width` (Window1 `ReportWidthClass`): its `VisibleModels` follow. Not navigation:
    /// no version, not journaled (a restarted daemon starts compact until the renderer reports again); a window's
    /// policy applies as to a change (a read-only view does not resize the window for the others).
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/invalidArguments(_:)`` (not a width class),
    ///   ``SessionError/accessDenied(_:)``.
    @discardableResult
    public func reportWidthClass(window number: WindowNumber, _ text: String, client: String?) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        guard let width = WidthClass(rawValue: text) else {
            throw .invalidArguments("'\(text.prefix(40))' is not a width class (compact, medium, expanded)")
        }
        try acting(as: client) { () throws(SessionError) in try checkPolicy(window) }
        // The width is the window's own front-end's: a mirror on a second screen does not resize it for the others.
        try checkReporter(client, on: window)
        window.widthClass = width
        return outcome(window: number, events: [])
    }

    /// The models on screen in `window` (Window1 `VisibleModels`): the panes — the pane stack's top elements, as many as
    /// the scene's strategy shows at the window's width class (one without panes) —, then every presented model on the
    /// active branch and the active model. O(active branch).
    public func visibleModels(of window: SessionWindow) -> [ModelID] {
        let panes = declaredScene(window.scene)?.panes
        return window.graph.visibleModels(paneStack: panes?.stack, panes: panes?.strategy.panes(at: window.widthClass) ?? 1)
    }
}
