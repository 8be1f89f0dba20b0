extension WindowSnapshot {
    /// This snapshot as `JSONEncoder` (`[.sortedKeys, .withoutEscapingSlashes]`) writes it, byte for byte:
    /// `GetState` and every session snapshot file, written directly for the common models (plain screens
    /// and stacks with ASCII text); any other model is handed to `encodeOther` (the caller's `JSONEncoder`:
    /// NavigationCore stays free of Foundation) and spliced in.
    public func directJSON(encodingOthersWith encodeOther: (ModelState) throws -> [UInt8]) rethrows -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + models.count * 160)
        try appendDirectJSON(to: &out, encodingOthersWith: encodeOther)
        return out
    }

    /// Appends ``directJSON(encodingOthersWith:)``'s bytes.
    public func appendDirectJSON(
        to out: inout [UInt8], encodingOthersWith encodeOther: (ModelState) throws -> [UInt8]
    ) rethrows {
        // Sorted keys: closed, format, formatVersion, models, nextModelID, root, version.
        out.append(UInt8(ascii: "{"))
        DirectJSON.appendKey("closed", to: &out)
        out.append(contentsOf: (isClosed ? "true" : "false").utf8)
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("format", to: &out)
        _ = DirectJSON.appendString(Self.formatName, to: &out)
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("formatVersion", to: &out)
        DirectJSON.appendInteger(Self.formatVersion, to: &out)
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("models", to: &out)
        out.append(UInt8(ascii: "["))
        for (index, model) in models.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let mark = out.count
            if model.appendDirectJSON(to: &out) { continue }
            out.removeSubrange(mark...)
            out.append(contentsOf: try encodeOther(model))
        }
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("nextModelID", to: &out)
        DirectJSON.appendInteger(nextModelID, to: &out)
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("root", to: &out)
        DirectJSON.appendInteger(root.rawValue, to: &out)
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("version", to: &out)
        DirectJSON.appendInteger(version, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}

extension ModelState {
    /// Appends this model's JSON for a plain screen or a stack with ASCII text and a path, root or tab
    /// attachment; `false` (with `out` partly written) for anything else.
    ///
    /// Sorted keys of a model: attachment, hidesTabBarWhenNotAtRoot, id, kind, params, parent, path, presented,
    /// screen, title.
    func appendDirectJSON(to out: inout [UInt8]) -> Bool {
        let isStack: Bool
        switch content {
        case .screen: isStack = false
        case .stack: isStack = true
        default: return false
        }
        out.append(UInt8(ascii: "{"))
        DirectJSON.appendKey("attachment", to: &out)
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
        if case .stack(_, let hides) = content {
            out.append(UInt8(ascii: ","))
            DirectJSON.appendKey("hidesTabBarWhenNotAtRoot", to: &out)
            out.append(contentsOf: (hides ? "true" : "false").utf8)
        }
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("id", to: &out)
        DirectJSON.appendInteger(id.rawValue, to: &out)
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("kind", to: &out)
        guard DirectJSON.appendString(kind.tag, to: &out) else { return false }
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("params", to: &out)
        guard DirectJSON.appendStringDictionary(params, to: &out) else { return false }
        if let parent {
            out.append(UInt8(ascii: ","))
            DirectJSON.appendKey("parent", to: &out)
            DirectJSON.appendInteger(parent.rawValue, to: &out)
        }
        if isStack, case .stack(let path, _) = content {
            out.append(UInt8(ascii: ","))
            DirectJSON.appendKey("path", to: &out)
            out.append(UInt8(ascii: "["))
            for (index, element) in path.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"model":"#.utf8)
                DirectJSON.appendInteger(element.model.rawValue, to: &out)
                if let transition = element.transition {
                    out.append(contentsOf: #","transition":"#.utf8)
                    guard DirectJSON.appendString(transition, to: &out) else { return false }
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let presented {
            out.append(UInt8(ascii: ","))
            DirectJSON.appendKey("presented", to: &out)
            DirectJSON.appendInteger(presented.rawValue, to: &out)
        }
        out.append(UInt8(ascii: ","))
        DirectJSON.appendKey("screen", to: &out)
        guard DirectJSON.appendString(screen, to: &out) else { return false }
        if let title {
            out.append(UInt8(ascii: ","))
            DirectJSON.appendKey("title", to: &out)
            guard DirectJSON.appendString(title, to: &out) else { return false }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }
}
