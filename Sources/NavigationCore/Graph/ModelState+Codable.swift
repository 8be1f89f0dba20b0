/// JSON form of one model in a snapshot: common fields plus the fields of its kind.
///
/// Unknown kinds throw ``NavigationError/invalidSnapshot(_:)`` rather than `DecodingError`, because a
/// snapshot with a bad kind is a semantically invalid snapshot.
extension ModelState: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        let id = try c.decode(ModelID.self, forKey: "id")
        let kind = try c.decode(String.self, forKey: "kind")
        let content: ModelContent
        var tabState: TabState?
        var splitState: SplitState?
        switch kind {
        case "screen": content = .screen
        case "stack":
            content = .stack(
                path: try c.decode([StackElement].self, forKey: "path"),
                hidesTabBarWhenNotAtRoot: try c.decodeIfPresent(Bool.self, forKey: "hidesTabBarWhenNotAtRoot") ?? false)
        case "tabs":
            content = .tabs(try c.decode([Tab].self, forKey: "tabs"), selected: try c.decode(String.self, forKey: "selectedTab"))
            tabState = TabState(
                policy: try TabPolicy(from: c), history: try c.decodeIfPresent([String].self, forKey: "tabHistory") ?? [])
        case "switched": content = .switched(try c.decode(ModelID.self, forKey: "switchedModel"))
        case "alert": content = .alert(try c.decode(DialogContent.self, forKey: "dialog"))
        case "confirmationDialog": content = .confirmationDialog(try c.decode(DialogContent.self, forKey: "dialog"))
        case "custom":
            let children = try c.decode([ModelID].self, forKey: "children")
            if try c.decode(String.self, forKey: "customKind") == SplitState.kindName {
                splitState = SplitState(
                    visibility: try c.decodeTagIfPresent(ColumnVisibility.self, forKey: "columnVisibility") ?? .automatic,
                    collapsed: try c.decodeIfPresent(Bool.self, forKey: "collapsed") ?? false)
            }
            content = .custom(
                kind: try c.decode(String.self, forKey: "customKind"), children: children,
                selected: try c.decodeIfPresent(Int.self, forKey: "selected") ?? max(0, children.count - 1))
        default:
            throw NavigationError.invalidSnapshot("model \(id) has unknown kind \"\(kind)\"")
        }
        self.init(
            id: id,
            parent: try c.decodeIfPresent(ModelID.self, forKey: "parent"),
            attachment: try c.decode(Attachment.self, forKey: "attachment"),
            screen: try c.decode(String.self, forKey: "screen"),
            params: try c.decodeIfPresent([String: String].self, forKey: "params") ?? [:],
            title: try c.decodeIfPresent(String.self, forKey: "title"),
            presented: try c.decodeIfPresent(ModelID.self, forKey: "presented"),
            content: content,
            saved: try c.decodeIfPresent([SavedBranch].self, forKey: "saved") ?? [],
            tag: try c.decodeIfPresent(String.self, forKey: "tag"), tabState: tabState,
            protection: try c.decodeIfPresent(Protection.self, forKey: "protection"),
            appearance: try c.decodeIfPresent(Appearance.self, forKey: "appearance"),
            appearanceOverride: try c.decodeIfPresent(Appearance.self, forKey: "appearanceOverride"),
            hidesTabBarAnimated: try c.decodeIfPresent(Bool.self, forKey: "hidesTabBarAnimated") ?? true,
            transition: try c.decodeIfPresent(String.self, forKey: "transition"), splitState: splitState,
            rendererState: try c.decodeIfPresent(RendererState.self, forKey: "rendererState"),
            resultTo: try c.decodeIfPresent(ModelID.self, forKey: "resultTo"),
            paramsHistory: try c.decodeIfPresent([[String: String]].self, forKey: "paramsHistory") ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(id, forKey: "id")
        try c.encode(kind.tag, forKey: "kind")
        try c.encode(screen, forKey: "screen")
        try c.encode(params, forKey: "params")
        try c.encodeIfPresent(title, forKey: "title")
        try c.encodeIfPresent(parent, forKey: "parent")
        try c.encode(attachment, forKey: "attachment")
        try c.encodeIfPresent(presented, forKey: "presented")
        try c.encodeIfPresent(tag, forKey: "tag")
        try c.encodeIfPresent(protection, forKey: "protection")
        try c.encodeIfPresent(appearance, forKey: "appearance")
        try c.encodeIfPresent(appearanceOverride, forKey: "appearanceOverride")
        try c.encodeIfPresent(transition, forKey: "transition")
        try c.encodeIfPresent(rendererState, forKey: "rendererState")
        try c.encodeIfPresent(resultTo, forKey: "resultTo")
        if !paramsHistory.isEmpty { try c.encode(paramsHistory, forKey: "paramsHistory") }
        switch content {
        case .screen: break
        case .stack(let path, let hides):
            try c.encode(path, forKey: "path")
            try c.encode(hides, forKey: "hidesTabBarWhenNotAtRoot")
            if !hidesTabBarAnimated { try c.encode(false, forKey: "hidesTabBarAnimated") }
        case .tabs(let tabs, let selected):
            try c.encode(tabs, forKey: "tabs")
            try c.encode(selected, forKey: "selectedTab")
            // Written only when not the default, so windows without a policy keep their snapshot bytes.
            if let tabState {
                try tabState.policy.encode(into: &c)
                if !tabState.history.isEmpty { try c.encode(tabState.history, forKey: "tabHistory") }
            }
        case .switched(let model): try c.encode(model, forKey: "switchedModel")
        case .alert(let content), .confirmationDialog(let content): try c.encode(content, forKey: "dialog")
        case .custom(let name, let children, let selected):
            try c.encode(name, forKey: "customKind")
            try c.encode(children, forKey: "children")
            try c.encode(selected, forKey: "selected")
            if let splitState {
                try c.encode(splitState.visibility, forKey: "columnVisibility")
                try c.encode(splitState.collapsed, forKey: "collapsed")
            }
        }
        if !saved.isEmpty { try c.encode(saved, forKey: "saved") }
    }
}

/// `{"format":"navsession.window","formatVersion":1,"version":…,"nextModelID":…,"closed":false,"root":1,"models":[…]}`.
///
/// Decoding validates: an invalid snapshot throws ``NavigationError/invalidSnapshot(_:)``.
extension WindowSnapshot: Codable {
    /// The value of the `format` field.
    public static let formatName = "navsession.window"

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        let format = try c.decodeIfPresent(String.self, forKey: "format") ?? Self.formatName
        guard format == Self.formatName else { throw NavigationError.invalidSnapshot("unknown format \"\(format)\"") }
        let formatVersion = try c.decode(Int.self, forKey: "formatVersion")
        guard formatVersion == Self.formatVersion else {
            throw NavigationError.invalidSnapshot("unsupported formatVersion \(formatVersion)")
        }
        try self.init(
            version: try c.decode(Int.self, forKey: "version"),
            nextModelID: try c.decode(Int.self, forKey: "nextModelID"),
            root: try c.decode(ModelID.self, forKey: "root"),
            models: try c.decode([ModelState].self, forKey: "models"),
            isClosed: try c.decodeIfPresent(Bool.self, forKey: "closed") ?? false,
            scheduled: try c.decodeIfPresent([ScheduledBatch].self, forKey: "scheduled") ?? [],
            nextScheduleNumber: try c.decodeIfPresent(Int.self, forKey: "nextScheduleNumber") ?? 1,
            rendererState: try c.decodeIfPresent(RendererState.self, forKey: "rendererState"))
        // The forward list: absent in states written before it existed.
        let forward = try c.decodeIfPresent([ForwardEntry].self, forKey: "forward") ?? []
        guard forward.count <= NavigationWindow.maxForwardEntries else {
            throw NavigationError.invalidSnapshot(
                "forward holds \(forward.count) entries; at most \(NavigationWindow.maxForwardEntries)")
        }
        self.forward = forward
        // Prepared models: absent when none. Their ids are the window's (below nextModelID, none a model's).
        let prepared = try c.decodeIfPresent([PreparedModel].self, forKey: "prepared") ?? []
        guard prepared.count <= NavigationWindow.maxPrepared else {
            throw NavigationError.invalidSnapshot("prepared holds \(prepared.count) models; at most \(NavigationWindow.maxPrepared)")
        }
        let ids = Set(models.map(\.id))
        for entry in prepared where entry.id.rawValue < 1 || entry.id.rawValue >= nextModelID || ids.contains(entry.id) {
            throw NavigationError.invalidSnapshot("prepared model \(entry.id) is not an id the window may give")
        }
        self.prepared = prepared
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encode(Self.formatName, forKey: "format")
        try c.encode(Self.formatVersion, forKey: "formatVersion")
        try c.encode(version, forKey: "version")
        try c.encode(nextModelID, forKey: "nextModelID")
        try c.encode(isClosed, forKey: "closed")
        try c.encode(root, forKey: "root")
        try c.encode(models, forKey: "models")
        if !scheduled.isEmpty { try c.encode(scheduled, forKey: "scheduled") }
        if nextScheduleNumber != 1 { try c.encode(nextScheduleNumber, forKey: "nextScheduleNumber") }
        if !forward.isEmpty { try c.encode(forward, forKey: "forward") }
        if !prepared.isEmpty { try c.encode(prepared, forKey: "prepared") }
        try c.encodeIfPresent(rendererState, forKey: "rendererState")
    }
}
