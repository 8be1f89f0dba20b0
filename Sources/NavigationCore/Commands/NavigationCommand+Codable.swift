/// JSON form of commands: a flat object tagged by `"command"`. See `Docs/state-schema.md`.
///
/// Unknown command names, unknown keys and missing or mistyped fields throw `DecodingError` with a
/// message naming the problem (the D-Bus service maps these to `InvalidBatch`/`InvalidCommand`).
extension NavigationCommand: Codable {
    static let names = [
        "stackAppend", "stackDropLast", "pop", "stackDropToRoot", "stackSetRoot", "stackSetPath", "present", "dismiss",
        "dismissJustFromPresented", "hide", "tabsSelectItem", "switchModel", "clearSavedState", "openWindow",
        "dismissWindow", "openURL", "trigger", "sendMessage", "sequence", "setRoutes", "setParams", "pushParams", "bringToFront",
        "goBack", "goBackToRoot", "goBackTo", "popTo", "dismissAll", "protect", "unprotect",
        // Appearance.
        "setAppearance", "setTabBarRule",
        // Screen defaults and transitions.
        "show",
        "selectChild", "setColumnVisibility",
        "transaction",
        "schedule", "cancelScheduled",
        // Back and forward.
        "goForward",
        // Renderer state.
        "setRendererState",
        // Windows.
        "moveModel",
        // Prepared models.
        "prepare",
    ]

    /// Each command's own keys besides `"command"`.
    static let fields: [String: [String]] = [
        "stackAppend": ["models", "singleTop"], "stackDropLast": ["count"], "pop": ["count"], "stackSetRoot": ["model", "clear"],
        "stackSetPath": ["path"], "present": ["presentation", "on", "replace"], "tabsSelectItem": ["tab"],
        "switchModel": ["model", "saveState", "restoreState"], "clearSavedState": ["screen"],
        "openWindow": ["scene", "params"], "dismissWindow": ["window"], "openURL": ["url"],
        "trigger": ["name", "payload"], "sendMessage": ["name", "payload", "to"], "sequence": ["commands"],
        "setRoutes": ["routes", "stack"],
        "setParams": ["model", "tag", "params", "title", "merge"], "pushParams": ["model", "tag", "params"], "bringToFront": ["screen", "tag", "model"],
        "dismiss": ["result"], "goBack": ["result"], "goBackTo": RouteMatcher.keys + RouteMatcher.paramsKeys,
        "protect": ["model", "tag", "reason", "dialog", "owner"], "unprotect": ["model", "tag", "owner"],
        // Appearance.
        "setAppearance": ["model", "tag", "appearance", "merge"], "setTabBarRule": ["stack", "hiddenWhenNotRoot", "animated"],
        // Screen defaults and transitions.
        "show": ["screen", "params", "transition"],
        "popTo": ["screen", "params", "merge"],
        "selectChild": ["container", "child"], "setColumnVisibility": ["container", "visibility"],
        "transaction": ["payload"],
        "schedule": ["afterMs", "commands", "id", "overdue", "deadline", "author"], "cancelScheduled": ["id"],
        // Back and forward.
        "goForward": ["count"],
        // Renderer state.
        "setRendererState": ["model", "state"],
        // Windows.
        "moveModel": ["model", "tag", "toWindow", "placement"],
        "prepare": ["model"],
    ]

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, alsoAllowing: [])
    }

    /// Decodes a command whose object may also hold the wrapper's `extra` keys (a batch entry's `from`).
    init(from decoder: any Decoder, alsoAllowing extra: [String]) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        let name = try c.decode(String.self, forKey: "command")
        try self.init(named: name, from: c)
        try StrictKeys.check(decoder, allowed: ["command"] + (Self.fields[name] ?? []) + extra)
    }

    private init(named name: String, from c: KeyedDecodingContainer<JSONKey>) throws {
        switch name {
        case "stackAppend":
            self = .stackAppend(
                try c.decode([StackElementSpec].self, forKey: "models"),
                singleTop: try c.decodeIfPresent(Bool.self, forKey: "singleTop") ?? false)
        case "stackDropLast": self = .stackDropLast(try c.decodeInteger("count", in: Int.min...Int.max) ?? 1)
        case "pop": self = .pop(count: try c.decodeInteger("count", in: Int.min...Int.max) ?? 1)
        case "stackDropToRoot": self = .stackDropToRoot
        case "stackSetRoot":
            self = .stackSetRoot(
                try c.decode(ModelSpec.self, forKey: "model"), clear: try c.decodeIfPresent(Bool.self, forKey: "clear") ?? false)
        case "stackSetPath": self = .stackSetPath(try c.decode([PathEntry].self, forKey: "path"))
        case "present":
            let presentation = try c.decode(PresentationSpec.self, forKey: "presentation")
            let replace = try c.decodeIfPresent(Bool.self, forKey: "replace")
            if let on = try c.decodeIfPresent(ModelReference.self, forKey: "on") {
                self = .presentOn(presentation, on: on, replace: replace ?? false)
            } else if replace != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: "replace", in: c, debugDescription: "\"replace\" needs \"on\" (the model whose presentation it replaces)")
            } else {
                self = .present(presentation)
            }
        case "show":
            let transition = try c.decodeIfPresent(String.self, forKey: "transition")
            if let transition, let problem = PresentationSpec.transitionProblem(transition) {
                throw DecodingError.dataCorruptedError(forKey: "transition", in: c, debugDescription: problem)
            }
            self = .show(
                screen: try c.decode(String.self, forKey: "screen"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:], transition: transition)
        case "popTo":
            self = .popTo(
                screen: try c.decode(String.self, forKey: "screen"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params"),
                merge: try c.decodeIfPresent(Bool.self, forKey: "merge") ?? false)
        case "dismiss":
            if let result = try c.decodeIfPresent(JSONValue.self, forKey: "result") {
                self = .dismissReturning(result: result)
            } else {
                self = .dismiss
            }
        case "goBack": self = .goBack(result: try c.decodeIfPresent(JSONValue.self, forKey: "result"))
        case "goBackToRoot": self = .goBackToRoot
        case "goBackTo": self = .goBackTo(try RouteMatcher(from: c))
        case "dismissAll": self = .dismissAll
        case "dismissJustFromPresented": self = .dismissJustFromPresented
        case "hide": self = .hide
        case "tabsSelectItem": self = .tabsSelectItem(try c.decode(String.self, forKey: "tab"))
        case "switchModel":
            self = .switchModel(
                try c.decode(ModelSpec.self, forKey: "model"),
                saveState: try c.decodeIfPresent(Bool.self, forKey: "saveState"),
                restoreState: try c.decodeIfPresent(Bool.self, forKey: "restoreState"))
        case "clearSavedState": self = .clearSavedState(screen: try c.decodeIfPresent(String.self, forKey: "screen"))
        case "openWindow":
            self = .openWindow(
                scene: try c.decode(String.self, forKey: "scene"),
                params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:])
        case "dismissWindow": self = .dismissWindow(id: try c.decodeIfPresent(String.self, forKey: "window"))
        case "openURL": self = .openURL(try c.decode(String.self, forKey: "url"))
        case "trigger":
            self = .trigger(
                name: try c.decode(String.self, forKey: "name"),
                payload: try c.decodeIfPresent(String.self, forKey: "payload") ?? "")
        case "sendMessage":
            self = .sendMessage(
                NavigationMessage(
                    try c.decode(String.self, forKey: "name"),
                    payload: try c.decodeIfPresent(String.self, forKey: "payload") ?? ""),
                to: try c.decodeIfPresent(MessageTarget.self, forKey: "to") ?? .current)
        case "sequence": self = .sequence(try c.decode([NavigationCommand].self, forKey: "commands"))
        case "setRoutes":
            let routes: [Route]
            do {
                routes = try c.decode([Route].self, forKey: "routes")
            } catch let error as RouteDecodingError {
                throw DecodingError.dataCorruptedError(forKey: "routes", in: c, debugDescription: error.description)
            }
            self = .setRoutes(routes, stack: try c.decodeIfPresent(ModelReference.self, forKey: "stack"))
        case "setParams":
            let params = try c.decodeIfPresent([String: String].self, forKey: "params")
            let title = try c.decodeIfPresent(String.self, forKey: "title")
            guard params != nil || title != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: "params", in: c, debugDescription: "setParams needs \"params\" or \"title\"")
            }
            self = .setParams(
                model: try Self.model(c), params: params, title: title,
                merge: try c.decodeIfPresent(Bool.self, forKey: "merge") ?? true)
        case "pushParams":
            self = .pushParams(model: try Self.model(c), params: try c.decode([String: String].self, forKey: "params"))
        case "bringToFront":
            let screen = try c.decodeIfPresent(String.self, forKey: "screen")
            switch (screen, try Self.model(c)) {
            case (let screen?, nil): self = .bringToFront(.screen(screen))
            case (nil, let model?): self = .bringToFront(.model(model))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: "screen", in: c,
                    debugDescription: "bringToFront needs exactly one of \"screen\", \"tag\" or \"model\"")
            }
        case "protect":
            self = .protect(
                model: try Self.model(c), reason: try c.decode(String.self, forKey: "reason"),
                dialog: try c.decodeIfPresent(String.self, forKey: "dialog").flatMap { $0.isEmpty ? nil : $0 },
                owner: try c.decodeIfPresent(String.self, forKey: "owner"))
        case "unprotect":
            self = .unprotect(model: try Self.model(c), owner: try c.decodeIfPresent(String.self, forKey: "owner"))
        // Appearance.
        case "setAppearance":
            self = .setAppearance(
                model: try Self.model(c), try c.decode(Appearance.self, forKey: "appearance"),
                merge: try c.decodeIfPresent(Bool.self, forKey: "merge") ?? true)
        case "setTabBarRule":
            self = .setTabBarRule(
                stack: try c.decodeIfPresent(ModelReference.self, forKey: "stack"),
                hiddenWhenNotRoot: try c.decode(Bool.self, forKey: "hiddenWhenNotRoot"),
                animated: try c.decodeIfPresent(Bool.self, forKey: "animated") ?? true)
        case "selectChild":
            self = .selectChild(
                container: try c.decodeIfPresent(ModelReference.self, forKey: "container"),
                child: try c.decode(ChildSelector.self, forKey: "child"))
        case "setColumnVisibility":
            guard let visibility = try c.decodeTagIfPresent(ColumnVisibility.self, forKey: "visibility") else {
                throw DecodingError.keyNotFound(
                    JSONKey("visibility"), DecodingError.Context(codingPath: c.codingPath, debugDescription: "no \"visibility\""))
            }
            self = .setColumnVisibility(
                container: try c.decodeIfPresent(ModelReference.self, forKey: "container"), visibility: visibility)
        case "transaction":
            let payload = try c.decode(JSONValue.self, forKey: "payload")
            guard case .object = payload else {
                throw DecodingError.dataCorruptedError(
                    forKey: "payload", in: c, debugDescription: "a transaction's payload must be a JSON object")
            }
            self = .transaction(payload)
        case "schedule": self = .schedule(try ScheduleSpec(from: c))
        case "cancelScheduled": self = .cancelScheduled(try c.decode(String.self, forKey: "id"))
        case "goForward": self = .goForward(count: try c.decodeInteger("count", in: Int.min...Int.max) ?? 1)
        // Renderer state: `"model": 0` is the window itself.
        case "setRendererState":
            let model: ModelReference? =
                (try? c.decode(Int.self, forKey: "model")) == 0 ? nil : try c.decode(ModelReference.self, forKey: "model")
            self = .setRendererState(model: model, try c.decode(RendererState.self, forKey: "state"))
        case "prepare":
            self = .prepare(try c.decode(ModelSpec.self, forKey: "model"))
        case "moveModel":
            // A window number (0: a new window); any other number is refused naming the key, never a trap.
            let toWindow = try c.decodeInteger(required: "toWindow", in: 0...Int(UInt32.max))
            self = .moveModel(
                model: try Self.model(c), toWindow: toWindow,
                placement: try c.decodeIfPresent(MovePlacement.self, forKey: "placement") ?? MovePlacement())
        default:
            if let meant = Spelling.closest(to: name, in: Self.names) {
                throw DecodingError.dataCorruptedError(
                    forKey: "command", in: c, debugDescription: "unknown command \"\(name)\"; did you mean \"\(meant)\"?")
            }
            throw c.unknownTag(name, key: "command", accepted: Self.names)
        }
    }

    /// The model of `setParams`/`bringToFront`: `"model"` (an id or `"tag:…"`) or `"tag"`, not both.
    private static func model(_ c: KeyedDecodingContainer<JSONKey>) throws -> ModelReference? {
        let model = try c.decodeIfPresent(ModelReference.self, forKey: "model")
        guard let tag = try c.decodeIfPresent(String.self, forKey: "tag") else { return model }
        guard model == nil else {
            throw DecodingError.dataCorruptedError(forKey: "tag", in: c, debugDescription: "give \"model\" or \"tag\", not both")
        }
        return .tag(tag)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(name, forKey: "command")
        switch self {
        case .stackAppend(let elements, let singleTop):
            try c.encode(elements, forKey: "models")
            if singleTop { try c.encode(true, forKey: "singleTop") }
        case .stackDropLast(let count): try c.encode(count, forKey: "count")
        case .pop(let count): if count != 1 { try c.encode(count, forKey: "count") }
        case .stackDropToRoot, .dismiss, .dismissJustFromPresented, .hide, .goBackToRoot, .dismissAll: break
        case .dismissReturning(let result): try c.encode(result, forKey: "result")
        case .goBack(let result): try c.encodeIfPresent(result, forKey: "result")
        case .goBackTo(let matcher):
            switch matcher {
            case .screen(let name, let params):
                try c.encode(name, forKey: "screen")
                switch params {
                case .equal(let value)?: try c.encode(value, forKey: "params")
                case .containing(let value)?: try c.encode(value, forKey: "paramsContaining")
                case nil: break
                }
            case .tag(let tag): try c.encode(tag, forKey: "tag")
            case .model(let reference): try c.encode(reference, forKey: "model")
            case .index(let index): try c.encode(index, forKey: "index")
            }
        case .stackSetRoot(let model, let clear):
            try c.encode(model, forKey: "model")
            try c.encode(clear, forKey: "clear")
        case .stackSetPath(let entries): try c.encode(entries, forKey: "path")
        case .present(let presentation): try c.encode(presentation, forKey: "presentation")
        case .show(let screen, let params, let transition):
            try c.encode(screen, forKey: "screen")
            if !params.isEmpty { try c.encode(params, forKey: "params") }
            try c.encodeIfPresent(transition, forKey: "transition")
        case .popTo(let screen, let params, let merge):
            try c.encode(screen, forKey: "screen")
            try c.encodeIfPresent(params, forKey: "params")
            if merge { try c.encode(merge, forKey: "merge") }
        case .presentOn(let presentation, let on, let replace):
            try c.encode(presentation, forKey: "presentation")
            try c.encode(on, forKey: "on")
            if replace { try c.encode(true, forKey: "replace") }
        case .tabsSelectItem(let tab): try c.encode(tab, forKey: "tab")
        case .switchModel(let model, let saveState, let restoreState):
            try c.encode(model, forKey: "model")
            try c.encodeIfPresent(saveState, forKey: "saveState")
            try c.encodeIfPresent(restoreState, forKey: "restoreState")
        case .clearSavedState(let screen): try c.encodeIfPresent(screen, forKey: "screen")
        case .openWindow(let scene, let params):
            try c.encode(scene, forKey: "scene")
            try c.encode(params, forKey: "params")
        case .dismissWindow(let id): try c.encodeIfPresent(id, forKey: "window")
        case .openURL(let url): try c.encode(url, forKey: "url")
        case .trigger(let name, let payload):
            try c.encode(name, forKey: "name")
            try c.encode(payload, forKey: "payload")
        case .sendMessage(let message, let target):
            try c.encode(message.name, forKey: "name")
            try c.encode(message.payload, forKey: "payload")
            try c.encode(target, forKey: "to")
        case .sequence(let commands): try c.encode(commands, forKey: "commands")
        case .setRoutes(let routes, let stack):
            try c.encode(routes, forKey: "routes")
            try c.encodeIfPresent(stack, forKey: "stack")
        case .setParams(let model, let params, let title, let merge):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encodeIfPresent(params, forKey: "params")
            try c.encodeIfPresent(title, forKey: "title")
            try c.encode(merge, forKey: "merge")
        case .pushParams(let model, let params):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(params, forKey: "params")
        case .bringToFront(.screen(let screen)): try c.encode(screen, forKey: "screen")
        case .bringToFront(.model(let model)): try c.encode(model, forKey: "model")
        case .protect(let model, let reason, let dialog, let owner):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(reason, forKey: "reason")
            try c.encodeIfPresent(dialog, forKey: "dialog")
            try c.encodeIfPresent(owner, forKey: "owner")
        case .unprotect(let model, let owner):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encodeIfPresent(owner, forKey: "owner")
        // Appearance.
        case .setAppearance(let model, let appearance, let merge):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(appearance, forKey: "appearance")
            if !merge { try c.encode(false, forKey: "merge") }
        case .setTabBarRule(let stack, let hidden, let animated):
            try c.encodeIfPresent(stack, forKey: "stack")
            try c.encode(hidden, forKey: "hiddenWhenNotRoot")
            try c.encode(animated, forKey: "animated")
        case .selectChild(let container, let child):
            try c.encodeIfPresent(container, forKey: "container")
            try c.encode(child, forKey: "child")
        case .setColumnVisibility(let container, let visibility):
            try c.encodeIfPresent(container, forKey: "container")
            try c.encode(visibility, forKey: "visibility")
        case .transaction(let payload): try c.encode(payload, forKey: "payload")
        case .schedule(let spec): try spec.encode(to: &c)
        case .cancelScheduled(let id): try c.encode(id, forKey: "id")
        // Back and forward.
        case .goForward(let count): if count != 1 { try c.encode(count, forKey: "count") }
        case .setRendererState(let model, let state):
            try c.encode(model ?? .id(ModelID(rawValue: 0)), forKey: "model")
            try c.encode(state, forKey: "state")
        case .prepare(let spec): try c.encode(spec, forKey: "model")
        case .moveModel(let model, let toWindow, let placement):
            try c.encodeIfPresent(model, forKey: "model")
            try c.encode(toWindow, forKey: "toWindow")
            if placement != MovePlacement() { try c.encode(placement, forKey: "placement") }
        }
    }
}

extension RouteMatcher {
    /// Exactly one of `screen`, `tag`, `model`, `index`.
    init(from c: KeyedDecodingContainer<JSONKey>) throws {
        let present = Self.keys.filter { c.contains(JSONKey($0)) }
        guard present.count == 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: "command", in: c,
                debugDescription: present.isEmpty
                    ? "goBackTo needs one of \"screen\", \"tag\", \"model\" or \"index\""
                    : "goBackTo takes one selector; got \(present.map { "\"\($0)\"" }.joined(separator: " and "))")
        }
        let refinements = Self.paramsKeys.filter { c.contains(JSONKey($0)) }
        guard refinements.isEmpty || (present[0] == "screen" && refinements.count == 1) else {
            throw DecodingError.dataCorruptedError(
                forKey: "command", in: c,
                debugDescription: present[0] == "screen"
                    ? "goBackTo takes \"params\" (the screen's value) or \"paramsContaining\" (a predicate), not both"
                    : "goBackTo's \"\(refinements[0])\" refines \"screen\" only; got it with \"\(present[0])\"")
        }
        switch present[0] {
        case "screen":
            let name = try c.decode(String.self, forKey: "screen")
            if let params = try c.decodeIfPresent([String: String].self, forKey: "params") {
                self = .screen(name, params: .equal(params))
            } else if let params = try c.decodeIfPresent([String: String].self, forKey: "paramsContaining") {
                self = .screen(name, params: .containing(params))
            } else {
                self = .screen(name)
            }
        case "tag": self = .tag(try c.decode(String.self, forKey: "tag"))
        case "model": self = .model(try c.decode(ModelReference.self, forKey: "model"))
        default: self = .index(try c.decodeInteger(required: "index", in: Int.min...Int.max))
        }
    }
}


/// A batch entry is the command object plus optional `"from"` (model id or `"tag:…"`) and `"animated"` (default true).
extension BatchCommand: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        self.init(
            try NavigationCommand(from: decoder, alsoAllowing: ["from", "animated"]),
            animated: try c.decodeIfPresent(Bool.self, forKey: "animated") ?? true)
        from = try c.decodeIfPresent(ModelReference.self, forKey: "from")
    }

    public func encode(to encoder: any Encoder) throws {
        try command.encode(to: encoder)
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encodeIfPresent(from, forKey: "from")
        if !animated { try c.encode(false, forKey: "animated") }
    }
}

/// `{"report":"poppedTo","stack":3,"index":0}`, `{"report":"dismissedInteractively","model":9}`,
/// `{"report":"selectedTab","tabs":2,"tab":"settings"}`, `{"report":"alertActionChosen","alert":10,"action":"ok"}`,
/// `{"report":"windowClosed"}`.
extension RendererReport: Codable {
    static let names = [
        "poppedTo", "dismissedInteractively", "selectedTab", "alertActionChosen", "windowClosed", "selectedChild",
        "collapsed",
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        let name = try c.decode(String.self, forKey: "report")
        switch name {
        case "poppedTo":
            self = .poppedTo(stack: try c.decode(ModelID.self, forKey: "stack"), index: try c.decodeInteger(required: "index", in: Int.min...Int.max))
        case "dismissedInteractively": self = .dismissedInteractively(try c.decode(ModelID.self, forKey: "model"))
        case "selectedTab":
            self = .selectedTab(tabs: try c.decode(ModelID.self, forKey: "tabs"), tab: try c.decode(String.self, forKey: "tab"))
        case "alertActionChosen":
            self = .alertActionChosen(
                alert: try c.decode(ModelID.self, forKey: "alert"), action: try c.decode(String.self, forKey: "action"))
        case "windowClosed": self = .windowClosed
        case "selectedChild":
            self = .selectedChild(
                container: try c.decode(ModelID.self, forKey: "container"), child: try c.decode(ModelID.self, forKey: "child"))
        case "collapsed":
            self = .collapsed(split: try c.decode(ModelID.self, forKey: "split"), collapsed: try c.decode(Bool.self, forKey: "collapsed"))
        default: throw c.unknownTag(name, key: "report", accepted: Self.names)
        }
        let fields = ["poppedTo": ["stack", "index"], "dismissedInteractively": ["model"], "selectedTab": ["tabs", "tab"],
                      "alertActionChosen": ["alert", "action"], "selectedChild": ["container", "child"],
                      "collapsed": ["split", "collapsed"]]
        try StrictKeys.check(decoder, allowed: ["report"] + (fields[name] ?? []))
    }

    public func encode(to encoder: any Encoder) throws {
        let (name, fields): (String, KeyValuePairs<JSONKey, any Encodable>) = switch self {
        case .poppedTo(let stack, let index): ("poppedTo", ["stack": stack, "index": index])
        case .dismissedInteractively(let model): ("dismissedInteractively", ["model": model])
        case .selectedTab(let tabs, let tab): ("selectedTab", ["tabs": tabs, "tab": tab])
        case .alertActionChosen(let alert, let action): ("alertActionChosen", ["alert": alert, "action": action])
        case .windowClosed: ("windowClosed", [:])
        case .selectedChild(let container, let child): ("selectedChild", ["container": container, "child": child])
        case .collapsed(let split, let collapsed): ("collapsed", ["split": split, "collapsed": collapsed])
        }
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(name, forKey: "report")
        for (key, value) in fields { try c.encode(value, forKey: key) }
    }
}

/// `{"commands":[…]}`, `{"report":{…}}`, `{"setState":true}`, `{"commands":[…],"scheduled":"toast"}`, `{"undo":7}`
/// or `{"redo":7}`.
extension ChangeCause: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        if let report = try c.decodeIfPresent(RendererReport.self, forKey: "report") {
            self = .report(report)
        } else if let id = try c.decodeIfPresent(String.self, forKey: "scheduled") {
            self = .scheduled(id: id, try c.decode([BatchCommand].self, forKey: "commands"))
        } else if try c.decodeIfPresent(Bool.self, forKey: "setState") == true {
            self = .setState
        } else if let version = try c.decodeIfPresent(Int.self, forKey: "undo") {
            self = .undo(version: version)
        } else if let version = try c.decodeIfPresent(Int.self, forKey: "redo") {
            self = .redo(version: version)
        } else if let record = try c.decodeIfPresent(MoveRecord.self, forKey: "moved") {
            self = .moved(record)
        } else if try c.decodeIfPresent(Bool.self, forKey: "reloaded") == true {
            self = .reloaded
        } else {
            self = .commands(try c.decode([BatchCommand].self, forKey: "commands"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        switch self {
        case .commands(let batch): try c.encode(batch, forKey: "commands")
        case .report(let report): try c.encode(report, forKey: "report")
        case .setState: try c.encode(true, forKey: "setState")
        case .undo(let version): try c.encode(version, forKey: "undo")
        case .redo(let version): try c.encode(version, forKey: "redo")
        case .moved(let record): try c.encode(record, forKey: "moved")
        case .reloaded: try c.encode(true, forKey: "reloaded")
        case .scheduled(let id, let batch):
            try c.encode(batch, forKey: "commands")
            try c.encode(id, forKey: "scheduled")
        }
    }
}
