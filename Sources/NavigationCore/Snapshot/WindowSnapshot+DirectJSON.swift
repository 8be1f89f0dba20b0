extension WindowSnapshot {
    /// This snapshot's JSON (``JSONOutput``'s bytes): `GetState` and every session snapshot file, written
    /// directly for the common models (plain screens and stacks with ASCII text); any other model is encoded
    /// by ``JSONOutput`` and spliced in.
    public func json() throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + models.count * 160)
        try appendJSON(to: &out)
        return out
    }

    /// Appends ``json()``'s bytes.
    public func appendJSON(to out: inout [UInt8]) throws {
        // Sorted keys: closed, forward, format, formatVersion, models, nextModelID, nextScheduleNumber, prepared,
        // rendererState, root, scheduled, version (the two scheduling keys only when not at their defaults, prepared
        // when not empty, rendererState when set).
        var object = DirectJSON.Object(&out)
        object.key("closed", &out)
        out.append(contentsOf: (isClosed ? "true" : "false").utf8)
        // The forward list, only when not empty.
        if !forward.isEmpty {
            object.key("forward", &out)
            out.append(contentsOf: try JSONOutput.encode(forward))
        }
        object.key("format", &out)
        _ = DirectJSON.appendString(Self.formatName, to: &out)
        object.integer("formatVersion", Self.formatVersion, &out)
        object.key("models", &out)
        var array = DirectJSON.Array(&out)
        for model in models {
            array.element(&out)
            let mark = out.count
            if model.appendDirectJSON(to: &out) { continue }
            out.removeSubrange(mark...)
            out.append(contentsOf: try JSONOutput.encode(model))
        }
        array.close(&out)
        object.integer("nextModelID", nextModelID, &out)
        if nextScheduleNumber != 1 {
            object.integer("nextScheduleNumber", nextScheduleNumber, &out)
        }
        if !prepared.isEmpty {
            object.key("prepared", &out)
            out.append(contentsOf: try JSONOutput.encode(prepared))
        }
        if let rendererState {
            object.key("rendererState", &out)
            out.append(contentsOf: rendererState.json.utf8)
        }
        object.integer("root", root.rawValue, &out)
        if !scheduled.isEmpty {
            object.key("scheduled", &out)
            out.append(contentsOf: try JSONOutput.encode(scheduled))
        }
        object.integer("version", version, &out)
        object.close(&out)
    }
}

extension ModelState {
    /// Appends this model's JSON for a plain screen or a stack with ASCII text and a path, root or tab
    /// attachment; `false` (with `out` partly written) for anything else.
    ///
    /// Sorted keys of a model: appearance, appearanceOverride, attachment, hidesTabBarAnimated,
    /// hidesTabBarWhenNotAtRoot, id, kind, params, parent, path, presented,
    /// rendererState, resultTo, screen, tag, title.
    func appendDirectJSON(to out: inout [UInt8]) -> Bool {
        var path: [StackElement]?
        var hidesTabBar = false
        // Only tab containers carry a tab state, and they are written by JSONOutput.
        guard tabState == nil else { return false }
        switch content {
        case .screen: break
        case .stack(let elements, let hides):
            path = elements
            hidesTabBar = hides
        default: return false
        }
        // Kept branches belong to switched containers, which the Codable path writes; so does a params history.
        guard saved.isEmpty, paramsHistory.isEmpty else { return false }
        // Protected models are rare: the Codable path writes their mark.
        guard protection == nil else { return false }
        // Only presented models carry a transition, and the Codable path writes them.
        guard transition == nil else { return false }
        var object = DirectJSON.Object(&out)
        if let appearance {
            object.key("appearance", &out)
            appearance.appendJSON(to: &out)
        }
        if let appearanceOverride {
            object.key("appearanceOverride", &out)
            appearanceOverride.appendJSON(to: &out)
        }
        object.key("attachment", &out)
        switch attachment {
        case .root: out.append(contentsOf: #"{"type":"root"}"#.utf8)
        case .path(let index):
            out.append(contentsOf: #"{"index":"#.utf8)
            DirectJSON.appendInteger(index, to: &out)
            out.append(contentsOf: #","type":"path"}"#.utf8)
        case .tab(let tab):
            out.append(contentsOf: #"{"tab":"#.utf8)
            guard DirectJSON.appendString(tab, to: &out) else { return false }
            out.append(contentsOf: #","type":"tab"}"#.utf8)
        default: return false
        }
        if path != nil {
            if !hidesTabBarAnimated {
                object.key("hidesTabBarAnimated", &out)
                out.append(contentsOf: "false".utf8)
            }
            object.key("hidesTabBarWhenNotAtRoot", &out)
            out.append(contentsOf: (hidesTabBar ? "true" : "false").utf8)
        }
        object.integer("id", id.rawValue, &out)
        object.key("kind", &out)
        guard DirectJSON.appendString(kind.tag, to: &out) else { return false }
        object.key("params", &out)
        guard DirectJSON.appendStringDictionary(params, to: &out) else { return false }
        object.integer("parent", parent?.rawValue, &out)
        if let path {
            object.key("path", &out)
            var array = DirectJSON.Array(&out)
            for element in path {
                array.element(&out)
                var member = DirectJSON.Object(&out)
                member.key("model", &out)
                DirectJSON.appendInteger(element.model.rawValue, to: &out)
                if let transition = element.transition {
                    member.key("transition", &out)
                    guard DirectJSON.appendString(transition, to: &out) else { return false }
                }
                member.close(&out)
            }
            array.close(&out)
        }
        object.integer("presented", presented?.rawValue, &out)
        if let rendererState {
            object.key("rendererState", &out)
            out.append(contentsOf: rendererState.json.utf8)
        }
        object.integer("resultTo", resultTo?.rawValue, &out)
        object.key("screen", &out)
        guard DirectJSON.appendString(screen, to: &out) else { return false }
        if let tag {
            object.key("tag", &out)
            guard DirectJSON.appendString(tag, to: &out) else { return false }
        }
        if let title {
            object.key("title", &out)
            guard DirectJSON.appendString(title, to: &out) else { return false }
        }
        object.close(&out)
        return true
    }
}
