import NavigationCore

/// The manifest's top-level `transitions`: rules choosing a transition by the screens navigated
/// from and to, and transitions allowed only between some screens.
///
/// ```json
/// "transitions": {
///   "rules": [{"from": ["home"], "to": ["detail"], "transition": "zoom"}],
///   "eligible": {"zoom": {"from": ["home"], "to": ["detail", "editor"]}}
/// }
/// ```
/// `"*"` in a screen list is any screen. Resolution (Docs/manifest.md, "Transitions"): the command's own →
/// the first matching rule → the target screen's `transition` → none; a command naming a transition outside
/// its `eligible` screens is refused (`TransitionNotEligible`).
public struct TransitionsDeclaration: Hashable, Sendable, Codable {
    /// One rule: from a screen of `from` to one of `to`, `transition`.
    public struct Rule: Hashable, Sendable, Codable {
        public var from: [String]
        public var to: [String]
        public var transition: String

        public init(from: [String], to: [String], transition: String) {
            self.from = from
            self.to = to
            self.transition = transition
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case from, to, transition }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            from = try c.decode([String].self, forKey: .from)
            to = try c.decode([String].self, forKey: .to)
            transition = try c.decode(String.self, forKey: .transition)
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        }
    }

    /// Where a transition may be used.
    public struct Eligibility: Hashable, Sendable, Codable {
        public var from: [String]
        public var to: [String]

        public init(from: [String], to: [String]) {
            self.from = from
            self.to = to
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case from, to }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            from = try c.decode([String].self, forKey: .from)
            to = try c.decode([String].self, forKey: .to)
            try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        }
    }

    public var rules: [Rule]
    public var eligible: [String: Eligibility]

    public init(rules: [Rule] = [], eligible: [String: Eligibility] = [:]) {
        self.rules = rules
        self.eligible = eligible
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case rules, eligible }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rules = try c.decodeIfPresent([Rule].self, forKey: .rules) ?? []
        eligible = try c.decodeIfPresent([String: Eligibility].self, forKey: .eligible) ?? [:]
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !rules.isEmpty { try c.encode(rules, forKey: .rules) }
        if !eligible.isEmpty { try c.encode(eligible, forKey: .eligible) }
    }
}

extension Manifest {
    /// The screens' default styles and transitions and the `transitions` rules, for
    /// ``NavigationCore/WindowConfiguration/transitions`` (validated when the manifest loaded).
    var transitionRules: TransitionRules {
        var screenDefaults: [String: TransitionRules.ScreenDefaults] = [:]
        for screen in screens where screen.style != nil || screen.transition != nil {
            screenDefaults[screen.name] = TransitionRules.ScreenDefaults(
                style: screen.style.flatMap(Self.presentationStyle), transition: screen.transition)
        }
        return TransitionRules(
            rules: (transitions?.rules ?? []).map {
                TransitionRules.Rule(from: .init($0.from), to: .init($0.to), transition: $0.transition)
            },
            eligibility: (transitions?.eligible ?? [:]).mapValues { .init(from: .init($0.from), to: .init($0.to)) },
            screens: screenDefaults)
    }

    /// A screen's declared `style` as a presentation style; `nil` for `push`.
    static func presentationStyle(_ name: String) -> PresentationStyle? {
        switch name {
        case "push": nil
        case "sheet": .sheet(detents: [])
        case "cover", "fullScreenCover": .fullScreenCover
        default: .custom(name)
        }
    }
}

extension ManifestValidator {
    /// Screens' `style` and `transition`, and `transitions`: names well formed, styles known, screens declared.
    func checkTransitions() throws(ManifestError) {
        let screenNames = Set(document.screens.map(\.name))
        let kinds = Set(document.presentationKinds).union([PresentationSpec.browserKind])
        func checkName(_ name: String, at key: String) throws(ManifestError) {
            if let problem = PresentationSpec.transitionProblem(name) { throw .invalidValue(key: key, detail: problem) }
        }
        func checkScreens(_ names: [String], at key: String) throws(ManifestError) {
            guard !names.isEmpty else { throw .invalidValue(key: key, detail: "an empty screen list (\"*\" is any screen)") }
            for (index, name) in names.enumerated() where name != "*" && !screenNames.contains(name) {
                throw .unknownScreen(key: "\(key)[\(index)]", screen: name)
            }
        }
        for (index, screen) in document.screens.enumerated() {
            if let style = screen.style, !["push", "sheet", "cover", "fullScreenCover"].contains(style), !kinds.contains(style) {
                throw .unknownPresentationKind(key: "screens[\(index)].style", kind: style)
            }
            if screen.style == PresentationSpec.browserKind && !document.presentationKinds.contains(PresentationSpec.browserKind) {
                throw .invalidValue(
                    key: "screens[\(index)].style",
                    detail: "the built-in browser shows a URL, not a screen; declare \"browser\" in presentationKinds to present screens with it")
            }
            if let transition = screen.transition { try checkName(transition, at: "screens[\(index)].transition") }
        }
        guard let transitions = document.transitions else { return }
        for (index, rule) in transitions.rules.enumerated() {
            try checkScreens(rule.from, at: "transitions.rules[\(index)].from")
            try checkScreens(rule.to, at: "transitions.rules[\(index)].to")
            try checkName(rule.transition, at: "transitions.rules[\(index)].transition")
        }
        for (name, eligibility) in transitions.eligible.sorted(by: { $0.key < $1.key }) {
            try checkName(name, at: "transitions.eligible.\(name)")
            try checkScreens(eligibility.from, at: "transitions.eligible.\(name).from")
            try checkScreens(eligibility.to, at: "transitions.eligible.\(name).to")
        }
    }
}
