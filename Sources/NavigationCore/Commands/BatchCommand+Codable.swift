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
