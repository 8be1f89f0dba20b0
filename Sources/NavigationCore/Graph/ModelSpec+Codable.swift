/// JSON form of model specs: one flat object, `kind` defaulting to `screen`.
///
/// `{"screen":"detail","params":{"id":"42"}}`,
/// `{"kind":"stack","screen":"inbox","path":[{"screen":"list"}]}`,
/// `{"kind":"tabs","tabs":[{"id":"home","title":"Home","icon":"house","model":{…}}],"selectedTab":"home"}`,
/// `{"kind":"switched","model":{…}}`, `{"kind":"custom","customKind":"split","children":[…]}`,
/// plus optional `"title"`, `"tag"` and `"presented": <presentation>`.
extension ModelSpec: Codable {
    static let kindTags = ["screen", "stack", "tabs", "switched", "custom", "alert", "confirmationDialog"]

    /// Each kind's own keys besides the common `kind`, `screen`, `params`, `title` and `presented`.
    static let kindFields: [String: [String]] = [
        "stack": ["path", "hidesTabBarWhenNotAtRoot", "hidesTabBarAnimated"], "tabs": ["tabs", "selectedTab", "reselect", "backBehavior"],
        "switched": ["model"],
        "custom": ["customKind", "children", "selected", "columnVisibility"], "alert": ["dialog"], "confirmationDialog": ["dialog"],
    ]

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, alsoAllowing: [])
    }

    /// Decodes a spec whose object may also hold the wrapper's `extra` keys (a stack element's `transition`).
    init(from decoder: any Decoder, alsoAllowing extra: [String]) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        let kind = try c.decodeIfPresent(String.self, forKey: "kind") ?? "screen"
        let content: ContentSpec
        var tabPolicy = TabPolicy.default
        switch kind {
        case "screen": content = .screen
        case "stack":
            content = .stack(
                path: try c.decode([StackElementSpec].self, forKey: "path"),
                hidesTabBarWhenNotAtRoot: try c.decodeIfPresent(Bool.self, forKey: "hidesTabBarWhenNotAtRoot") ?? false)
        case "tabs":
            content = .tabs(
                try c.decode([TabSpec].self, forKey: "tabs"),
                selected: try c.decodeIfPresent(String.self, forKey: "selectedTab"))
            tabPolicy = try TabPolicy(from: c)
        case "switched": content = .switched(try c.decode(ModelSpec.self, forKey: "model"))
        case "custom":
            content = .custom(
                kind: try c.decode(String.self, forKey: "customKind"),
                children: try c.decodeIfPresent([ModelSpec].self, forKey: "children") ?? [],
                selected: try c.decodeIfPresent(Int.self, forKey: "selected"))
        case "alert": content = .alert(try c.decode(DialogObject.self, forKey: "dialog").content)
        case "confirmationDialog": content = .confirmationDialog(try c.decode(DialogObject.self, forKey: "dialog").content)
        default: throw c.unknownTag(kind, key: "kind", accepted: Self.kindTags)
        }
        let screen: String
        if kind == "screen" {
            screen = try c.decode(String.self, forKey: "screen")
        } else {
            // A container without a screen name is named by its kind; a custom container by its custom kind
            // (`split`, as ``ModelSpec/custom(_:children:selected:screen:)`` names it), so its route says which.
            var unnamed = kind
            if case .custom(let customKind, _, _) = content { unnamed = customKind }
            screen = try c.decodeIfPresent(String.self, forKey: "screen") ?? unnamed
        }
        self.init(
            screen: screen,
            params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:],
            title: try c.decodeIfPresent(String.self, forKey: "title"),
            content: content,
            presented: try c.decodeIfPresent(PresentationSpec.self, forKey: "presented"),
            tag: try c.decodeIfPresent(String.self, forKey: "tag"), tabPolicy: tabPolicy,
            appearance: try c.decodeIfPresent(Appearance.self, forKey: "appearance"))
        if kind == "stack" { hidesTabBarAnimated = try c.decodeIfPresent(Bool.self, forKey: "hidesTabBarAnimated") ?? true }
        if kind == "custom" {
            columnVisibility = try c.decodeTagIfPresent(ColumnVisibility.self, forKey: "columnVisibility")
        }
        try StrictKeys.check(
            decoder,
            allowed: ["kind", "screen", "params", "title", "tag", "presented", "appearance"] + (Self.kindFields[kind] ?? [])
                + extra)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(kind.tag, forKey: "kind")
        try c.encode(screen, forKey: "screen")
        if !params.isEmpty { try c.encode(params, forKey: "params") }
        try c.encodeIfPresent(title, forKey: "title")
        try c.encodeIfPresent(tag, forKey: "tag")
        try c.encodeIfPresent(appearance, forKey: "appearance")
        switch content {
        case .screen: break
        case .stack(let path, let hides):
            try c.encode(path, forKey: "path")
            if hides { try c.encode(true, forKey: "hidesTabBarWhenNotAtRoot") }
            if !hidesTabBarAnimated { try c.encode(false, forKey: "hidesTabBarAnimated") }
        case .tabs(let tabs, let selected):
            try c.encode(tabs, forKey: "tabs")
            try c.encodeIfPresent(selected, forKey: "selectedTab")
            try tabPolicy.encode(into: &c)
        case .switched(let model): try c.encode(model, forKey: "model")
        case .custom(let name, let children, let selected):
            try c.encode(name, forKey: "customKind")
            try c.encode(children, forKey: "children")
            try c.encodeIfPresent(selected, forKey: "selected")
            try c.encodeIfPresent(columnVisibility, forKey: "columnVisibility")
        case .alert(let content), .confirmationDialog(let content): try c.encode(content, forKey: "dialog")
        }
        try c.encodeIfPresent(presented, forKey: "presented")
    }
}

/// A stack element spec is the model spec object plus an optional `"transition"` key.
extension StackElementSpec: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        self.init(
            try ModelSpec(from: decoder, alsoAllowing: ["transition"]),
            transition: try c.decodeIfPresent(String.self, forKey: "transition"))
    }

    public func encode(to encoder: any Encoder) throws {
        try model.encode(to: encoder)
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encodeIfPresent(transition, forKey: "transition")
    }
}

/// `{"existing":5,"transition":"fade"}` keeps element #5 (`"existing":"tag:t"` the tagged one); any other object is a new element spec.
extension PathEntry: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        if let id = try c.decodeIfPresent(ModelReference.self, forKey: "existing") {
            self = .existing(id, transition: try c.decodeIfPresent(String.self, forKey: "transition"))
            try StrictKeys.check(decoder, allowed: ["existing", "transition"])
        } else {
            self = .new(try StackElementSpec(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .existing(let id, let transition):
            var c = encoder.container(keyedBy: JSONKey.self)
            try c.encode(id, forKey: "existing")
            try c.encodeIfPresent(transition, forKey: "transition")
        case .new(let spec): try spec.encode(to: encoder)
        }
    }
}

/// `{"kind":"sheet","detents":["medium"],"model":{…}}`, `{"kind":"fullScreenCover","model":{…}}`,
/// `{"kind":"alert","title":"…","message":"…","actions":[…]}`,
/// `{"kind":"confirmationDialog","sourceID":"b","title":"","actions":[…]}`,
/// `{"kind":"custom","name":"popover","model":{…}}`.
extension PresentationSpec: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        // The built-in browser: `{"kind":"browser","url":"https://…"}`.
        if try c.decodeIfPresent(String.self, forKey: "kind") == PresentationSpec.browserKind {
            let url = try c.decode(String.self, forKey: "url")
            if let problem = Self.browserURLProblem(url) {
                throw DecodingError.dataCorruptedError(forKey: "url", in: c, debugDescription: problem)
            }
            self = .browser(url: url)
            try decodeTransition(c)
            try StrictKeys.check(decoder, allowed: ["kind", "url", "transition"])
            return
        }
        let style = try PresentationStyle(from: decoder)
        let styleKeys: [String]
        switch style {
        case .alert:
            self = .alert(try DialogContent(from: decoder))
            styleKeys = ["title", "message", "actions"]
        case .confirmationDialog(let sourceID):
            self = .confirmationDialog(try DialogContent(from: decoder), sourceID: sourceID)
            styleKeys = ["sourceID", "title", "message", "actions"]
        case .sheet:
            self.init(style: style, model: try c.decode(ModelSpec.self, forKey: "model"))
            styleKeys = ["detents", "model"]
        case .fullScreenCover:
            self.init(style: style, model: try c.decode(ModelSpec.self, forKey: "model"))
            styleKeys = ["model"]
        case .custom:
            self.init(style: style, model: try c.decode(ModelSpec.self, forKey: "model"))
            styleKeys = ["name", "model"]
        }
        try decodeTransition(c)
        try StrictKeys.check(decoder, allowed: ["kind", "transition"] + styleKeys)
    }

    private mutating func decodeTransition(_ c: KeyedDecodingContainer<JSONKey>) throws {
        guard let transition = try c.decodeIfPresent(String.self, forKey: "transition") else { return }
        if let problem = Self.transitionProblem(transition) {
            throw DecodingError.dataCorruptedError(forKey: "transition", in: c, debugDescription: problem)
        }
        self.transition = transition
    }

    public func encode(to encoder: any Encoder) throws {
        try style.encode(to: encoder)
        switch model.content {
        case .alert(let content), .confirmationDialog(let content):
            try content.encode(to: encoder)
        default:
            var c = encoder.container(keyedBy: JSONKey.self)
            try c.encode(model, forKey: "model")
        }
        if let transition {
            var c = encoder.container(keyedBy: JSONKey.self)
            try c.encode(transition, forKey: "transition")
        }
    }
}

/// A spec's `"dialog"` object: dialog content on its own, so only its own keys are accepted (the same
/// content inside a presentation object shares that object with the presentation's keys).
private struct DialogObject: Decodable {
    var content: DialogContent

    init(from decoder: any Decoder) throws {
        content = try DialogContent(from: decoder)
        try StrictKeys.check(decoder, allowed: ["title", "message", "actions"])
    }
}
