/// One step a renderer animates, derived from the graph change itself (not from a diff of route views):
/// each is a state the graph really passed through, in the order it did.
///
/// A change records its primitive mutations as it makes them (``ChangeEvent/steps``); a presentation that
/// stays is therefore never dismissed and presented again, and a tab switch is a step of its own.
/// ``shaped(for:)`` splits them for what a renderer can do in one update.
public enum NavigationStep: Hashable, Sendable {
    /// Models pushed onto `stack`, in order; `transitions`: each one's renderer transition, aligned with `models`
    /// (`nil` = the default), empty when none has one.
    case push(stack: ModelID, models: [ModelID], transitions: [String?] = [])
    /// Models popped from `stack`, the top first; `transitions`: the ones they were pushed with (a renderer reverses
    /// them), aligned with `models`, empty when none has one.
    case pop(stack: ModelID, models: [ModelID], transitions: [String?] = [])
    /// `stack`'s whole path replaced (`stackSetPath`, `stackSetRoot`); kept models appear in both lists.
    case replacePath(stack: ModelID, from: [ModelID], to: [ModelID])
    /// `model` presented by `presenter`; `nested` are presentations it brings along, bottom-up. `transition`:
    /// the presentation's renderer transition (`nil` = the style's default).
    case present(presenter: ModelID, model: ModelID, style: PresentationStyle, nested: [Presentation], transition: String? = nil)
    /// The presentation `model` of `presenter` dismissed; `nested` are presentations above it that go with
    /// it, bottom-up. `transition`: the transition it was presented with (a renderer reverses it).
    case dismiss(presenter: ModelID, model: ModelID, nested: [Presentation], transition: String? = nil)
    /// `tabs` selects `tab` instead of `previous`.
    case selectTab(tabs: ModelID, tab: String, previous: String)
    /// The switched model `container` shows `to` instead of `from`; `saved`: `from` was kept (a saved branch,
    /// suspended), else it finished; `restored`: `to` is a kept branch coming back (resumed), else it is new.
    case switchContent(container: ModelID, from: ModelID?, to: ModelID, saved: Bool = false, restored: Bool = false)
    /// The window's whole graph replaced (Window1 `SetState`).
    case replaceRoot(from: ModelID, to: ModelID)
    /// `model`'s params or title changed in place (`setParams`, `singleTop`): same id, no lifecycle.
    case update(model: ModelID)
    // Appearance.
    /// `model`'s appearance changed in place (`setAppearance`): `appearance` is what now applies (resolved).
    case appearance(model: ModelID, appearance: Appearance)
    /// `stack`'s tab-bar rule changed (`setTabBarRule`): the tab bar hides while the stack is not at its root
    /// when `hiddenWhenNotRoot`, animated when `animated`.
    case tabBarRule(stack: ModelID, hiddenWhenNotRoot: Bool, animated: Bool)
    /// The custom container `container` shows its child `child` instead of `previous`; every child stays live
    /// (no lifecycle).
    case selectChild(container: ModelID, child: ModelID, previous: ModelID)
    /// A split container's column visibility changed (no lifecycle).
    case columnVisibility(container: ModelID, visibility: ColumnVisibility, previous: ColumnVisibility)
    /// A split container is shown collapsed (its columns as one stack) / side by side again.
    case collapse(container: ModelID)
    case expand(container: ModelID)
    // Renderer state.
    /// The renderer state of `model` (`nil`: the window's own) is now `state` (empty: cleared). Nothing to
    /// redraw: a renderer that did not set it may read it; the one that did ignores it.
    case rendererState(model: ModelID?, state: RendererState)

    /// A presentation inside a presented or dismissed subtree.
    public struct Presentation: Hashable, Sendable {
        /// The presenting model.
        public var presenter: ModelID
        /// The presented model.
        public var model: ModelID
        /// How it is presented.
        public var style: PresentationStyle
        /// Its renderer transition (`nil` = the style's default).
        public var transition: String?

        /// Creates a presentation.
        public init(presenter: ModelID, model: ModelID, style: PresentationStyle, transition: String? = nil) {
            self.presenter = presenter
            self.model = model
            self.style = style
            self.transition = transition
        }
    }

    /// What a renderer can do in one update.
    public struct Capabilities: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Several presentation layers dismissed (or presented) in one update.
        public static let multiDismiss = Capabilities(rawValue: 1)
        /// Several screens pushed in one update.
        public static let pushesInOne = Capabilities(rawValue: 2)
    }

    /// The number of model ids the step carries (what bounds a change's steps).
    public var size: Int {
        switch self {
        case .push(_, let models, _), .pop(_, let models, _): models.count + 1
        case .replacePath(_, let from, let to): from.count + to.count + 1
        case .present(_, _, _, let nested, _), .dismiss(_, _, let nested, _): 2 + 2 * nested.count
        case .selectTab, .switchContent, .replaceRoot: 2
        case .selectChild: 3
        case .columnVisibility, .collapse, .expand: 1
        case .update, .appearance, .tabBarRule, .rendererState: 1
        }
    }

    /// The steps as a renderer with `capabilities` animates them: without ``Capabilities/pushesInOne``
    /// each pushed model is a step of its own; without ``Capabilities/multiDismiss`` each presentation
    /// layer is (dismissals top-down, presentations bottom-up). O(number of ids).
    public static func shaped(_ steps: [NavigationStep], for capabilities: Capabilities) -> [NavigationStep] {
        var result: [NavigationStep] = []
        for step in steps {
            switch step {
            case .push(let stack, let models, let transitions) where !capabilities.contains(.pushesInOne) && models.count > 1:
                result.append(contentsOf: models.indices.map { index in
                    let transition = transitions.indices.contains(index) ? transitions[index] : nil
                    return .push(stack: stack, models: [models[index]], transitions: transition == nil ? [] : [transition])
                })
            case .present(let presenter, let model, let style, let nested, let transition)
                where !capabilities.contains(.multiDismiss) && !nested.isEmpty:
                result.append(.present(presenter: presenter, model: model, style: style, nested: [], transition: transition))
                result.append(contentsOf: nested.map {
                    .present(presenter: $0.presenter, model: $0.model, style: $0.style, nested: [], transition: $0.transition)
                })
            case .dismiss(let presenter, let model, let nested, let transition)
                where !capabilities.contains(.multiDismiss) && !nested.isEmpty:
                result.append(contentsOf: nested.reversed().map {
                    .dismiss(presenter: $0.presenter, model: $0.model, nested: [], transition: $0.transition)
                })
                result.append(.dismiss(presenter: presenter, model: model, nested: [], transition: transition))
            default:
                result.append(step)
            }
        }
        return result
    }
}

extension NavigationStep {
    /// The steps as the JSON array Window1 `Changed` carries in `steps_json` (Docs/dbus-api.md), e.g.
    /// `[{"kind":"selectTab","tabs":3,"tab":"settings","previous":"home"},{"kind":"push","stack":7,"models":[13]}]`.
    /// Written by hand in one pass over one byte buffer: it is on the path of every change, and building it
    /// from interpolated strings cost a dozen intermediate strings per step.
    public static func json(_ steps: [NavigationStep]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 * steps.count + 2)
        var array = DirectJSON.Array(&out)
        for step in steps {
            array.element(&out)
            step.appendJSON(to: &out)
        }
        array.close(&out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One step as a JSON object.
    public var json: String {
        var out: [UInt8] = []
        appendJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the step's JSON object to `out` (keys in the order ``json`` documents, not sorted).
    func appendJSON(to out: inout [UInt8]) {
        func kind(_ name: StaticString) {
            Self.append(#"{"kind":""#, to: &out)
            Self.append(name, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        func member(_ key: StaticString) {
            Self.append(#",""#, to: &out)
            Self.append(key, to: &out)
            Self.append(#"":"#, to: &out)
        }
        func id(_ key: StaticString, _ model: ModelID) {
            member(key)
            DirectJSON.appendInteger(model.rawValue, to: &out)
        }
        func ids(_ key: StaticString, _ models: [ModelID]) {
            member(key)
            var array = DirectJSON.Array(&out)
            for model in models {
                array.element(&out)
                DirectJSON.appendInteger(model.rawValue, to: &out)
            }
            array.close(&out)
        }
        func text(_ key: StaticString, _ value: String) {
            member(key)
            JSONString.appendLiteral(value, to: &out)
        }
        func names(_ key: StaticString, _ values: [String?]) {
            guard !values.isEmpty else { return }
            member(key)
            var array = DirectJSON.Array(&out)
            for value in values {
                array.element(&out)
                if let value { JSONString.appendLiteral(value, to: &out) } else { Self.append("null", to: &out) }
            }
            array.close(&out)
        }
        func nested(_ presentations: [Presentation]) {
            guard !presentations.isEmpty else { return }
            member("nested")
            var array = DirectJSON.Array(&out)
            for presentation in presentations {
                array.element(&out)
                Self.append(#"{"presenter":"#, to: &out)
                DirectJSON.appendInteger(presentation.presenter.rawValue, to: &out)
                id("model", presentation.model)
                text("style", presentation.style.stepName)
                if let transition = presentation.transition { text("transition", transition) }
                out.append(UInt8(ascii: "}"))
            }
            array.close(&out)
        }
        switch self {
        case .push(let stack, let models, let transitions):
            kind("push")
            id("stack", stack)
            ids("models", models)
            names("transitions", transitions)
        case .pop(let stack, let models, let transitions):
            kind("pop")
            id("stack", stack)
            ids("models", models)
            names("transitions", transitions)
        case .replacePath(let stack, let from, let to):
            kind("replacePath")
            id("stack", stack)
            ids("from", from)
            ids("to", to)
        case .present(let presenter, let model, let style, let presentations, let transition):
            kind("present")
            id("presenter", presenter)
            id("model", model)
            text("style", style.stepName)
            if let transition { text("transition", transition) }
            nested(presentations)
        case .dismiss(let presenter, let model, let presentations, let transition):
            kind("dismiss")
            id("presenter", presenter)
            id("model", model)
            if let transition { text("transition", transition) }
            nested(presentations)
        case .selectTab(let tabs, let tab, let previous):
            kind("selectTab")
            id("tabs", tabs)
            text("tab", tab)
            text("previous", previous)
        case .switchContent(let container, let from, let to, let saved, let restored):
            kind("switch")
            id("container", container)
            if let from {
                id("from", from)
            } else {
                member("from")
                Self.append("null", to: &out)
            }
            id("to", to)
            member("saved")
            Self.append(saved ? "true" : "false", to: &out)
            member("restored")
            Self.append(restored ? "true" : "false", to: &out)
        case .replaceRoot(let from, let to):
            kind("replaceRoot")
            id("from", from)
            id("to", to)
        case .update(let model):
            kind("update")
            id("model", model)
        case .appearance(let model, let appearance):
            kind("appearance")
            id("model", model)
            member("appearance")
            appearance.appendJSON(to: &out)
        case .tabBarRule(let stack, let hidden, let animated):
            kind("tabBarRule")
            id("stack", stack)
            member("hiddenWhenNotRoot")
            Self.append(hidden ? "true" : "false", to: &out)
            member("animated")
            Self.append(animated ? "true" : "false", to: &out)
        case .selectChild(let container, let child, let previous):
            kind("selectChild")
            id("container", container)
            id("child", child)
            id("previous", previous)
        case .columnVisibility(let container, let visibility, let previous):
            kind("columnVisibility")
            id("container", container)
            text("visibility", visibility.rawValue)
            text("previous", previous.rawValue)
        case .collapse(let container):
            kind("collapse")
            id("container", container)
        case .expand(let container):
            kind("expand")
            id("container", container)
        case .rendererState(let model, let state):
            kind("rendererState")
            member("model")
            DirectJSON.appendInteger(model?.rawValue ?? 0, to: &out)
            member("state")
            out.append(contentsOf: state.json.utf8)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}

extension PresentationStyle {
    /// The style's name in steps: `sheet`, `fullScreenCover`, `alert`, `confirmationDialog` or the custom kind.
    var stepName: String {
        switch self {
        case .sheet: "sheet"
        case .fullScreenCover: "fullScreenCover"
        case .alert: "alert"
        case .confirmationDialog: "confirmationDialog"
        case .custom(let name): name
        }
    }
}

extension ModelID {
    /// The id as JSON writes it (``DirectJSON/decimal(_:)``).
    var decimal: String { DirectJSON.decimal(rawValue) }
}
