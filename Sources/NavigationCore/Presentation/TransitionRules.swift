/// How screens are shown when a command does not say: each screen's default presentation
/// style and transition, rules choosing a transition by the screens navigated from and to, and transitions
/// allowed only between some screens (SwiftUICoordinator's `Transitionable.isEligible(from:to:)`).
///
/// A transition is resolved, in this order: the one the command names (refused with
/// ``NavigationError/transitionNotEligible(transition:from:to:)`` when it is declared eligible only elsewhere) →
/// the first rule matching the screens → the target screen's default → none. The resolved name is what the state,
/// the routes and the steps carry. Empty (the default) costs nothing: no change looks at it.
public struct TransitionRules: Hashable, Sendable {
    /// A set of screen names, or any screen (`"*"`).
    public struct ScreenSet: Hashable, Sendable {
        /// Whether every screen is in the set.
        public var any: Bool
        /// The screens in the set (ignored when ``any``).
        public var names: Set<String>

        /// A set of screens; `"*"` among them makes it any screen.
        public init(_ names: [String]) {
            any = names.contains("*")
            self.names = Set(names.filter { $0 != "*" })
        }

        /// Whether `screen` is in the set; an unknown screen (`nil`) is only in the set of any screen.
        public func contains(_ screen: String?) -> Bool {
            if any { return true }
            guard let screen else { return false }
            return names.contains(screen)
        }
    }

    /// `{"from":[…],"to":[…],"transition":"zoom"}`: navigating from a screen of `from` to one of `to` uses
    /// `transition` when the command names none.
    public struct Rule: Hashable, Sendable {
        public var from: ScreenSet
        public var to: ScreenSet
        public var transition: String

        public init(from: ScreenSet, to: ScreenSet, transition: String) {
            self.from = from
            self.to = to
            self.transition = transition
        }
    }

    /// The default presentation of a screen: how ``NavigationCommand/show(screen:params:transition:)`` shows it
    /// (`nil` = push) and the transition it gets when nothing else names one.
    public struct ScreenDefaults: Hashable, Sendable {
        /// `nil` = push; otherwise the presentation style (a sheet, a cover, a custom kind, `browser`).
        public var style: PresentationStyle?
        public var transition: String?

        public init(style: PresentationStyle? = nil, transition: String? = nil) {
            self.style = style
            self.transition = transition
        }
    }

    /// Where a transition may be used: from a screen of `from` to one of `to`.
    public struct Eligibility: Hashable, Sendable {
        public var from: ScreenSet
        public var to: ScreenSet

        public init(from: ScreenSet, to: ScreenSet) {
            self.from = from
            self.to = to
        }
    }

    /// Rules, first match wins.
    public var rules: [Rule]
    /// Transition name → where it may be used; a transition not listed may be used anywhere.
    public var eligibility: [String: Eligibility]
    /// Screen name → its defaults.
    public var screens: [String: ScreenDefaults]

    /// Rules, eligibility and screen defaults; all empty by default.
    public init(rules: [Rule] = [], eligibility: [String: Eligibility] = [:], screens: [String: ScreenDefaults] = [:]) {
        self.rules = rules
        self.eligibility = eligibility
        self.screens = screens
    }

    /// Whether nothing is declared (then no change resolves anything).
    public var isEmpty: Bool { rules.isEmpty && eligibility.isEmpty && screens.isEmpty }

    /// The transition of a move from `from` (the screen shown before, `nil` when unknown) to `to`, given the one
    /// the command names. O(rules).
    public func resolve(explicit: String?, from: String?, to: String) throws(NavigationError) -> String? {
        if let explicit {
            if let allowed = eligibility[explicit], !(allowed.from.contains(from) && allowed.to.contains(to)) {
                throw .transitionNotEligible(transition: explicit, from: from ?? "", to: to)
            }
            return explicit
        }
        if let rule = rules.first(where: { $0.from.contains(from) && $0.to.contains(to) }) { return rule.transition }
        return screens[to]?.transition
    }
}

extension NavigationWindow {
    /// The screen a model shows: itself for a screen, else the one its active children lead to (a stack's top,
    /// a tab container's selected tab, …). O(depth).
    func shownScreen(_ start: Node) -> String {
        var current = start
        var remaining = nodes.count
        while remaining > 0, let next = current.lastContainerChild, let child = nodes[next] {
            remaining -= 1
            current = child
        }
        return current.screen
    }

    /// The screen a spec shows once created (a stack's top element, …).
    static func shownScreen(_ spec: ModelSpec) -> String {
        switch spec.content {
        case .stack(let path, _): path.last.map { shownScreen($0.model) } ?? spec.screen
        case .switched(let child): shownScreen(child)
        case .tabs(let tabs, let selected): (tabs.first { $0.id == selected } ?? tabs.first).map { shownScreen($0.model) } ?? spec.screen
        default: spec.screen
        }
    }

    /// The transition a presentation on `presenter` gets (see ``TransitionRules``); the spec's own when nothing
    /// is declared.
    func resolvedTransition(of presentation: PresentationSpec, on presenter: Node) throws(NavigationError) -> String? {
        let rules = configuration.transitions
        guard !rules.isEmpty else { return presentation.transition }
        return try rules.resolve(
            explicit: presentation.transition, from: shownScreen(presenter), to: Self.shownScreen(presentation.model))
    }

    /// The transitions of elements pushed on `stack`, each from the screen below it.
    func resolvedTransitions(of elements: [StackElementSpec], on stack: Node) throws(NavigationError) -> [String?] {
        let rules = configuration.transitions
        guard !rules.isEmpty else { return elements.map(\.transition) }
        var from: String? = stack.path.last.flatMap { nodes[$0.model] }.map(shownScreen)
        var result: [String?] = []
        for element in elements {
            let to = Self.shownScreen(element.model)
            result.append(try rules.resolve(explicit: element.transition, from: from, to: to))
            from = to
        }
        return result
    }
}
