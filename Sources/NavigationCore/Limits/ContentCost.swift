/// The content cost of models: an upper estimate, in bytes, of what a model adds to every message that
/// describes it (its JSON in `GetState`, its route, its line in the debug tree).
///
/// A model's cost is the JSON-escaped size of its own strings plus ``modelOverhead``; a dialog counts
/// its actions' commands too. The window keeps the sum (``NavigationWindow/contentCost``), so bounding
/// it (``GraphLimits/maxContentCost``) bounds every message about the window. Computing a cost is
/// linear in the size of what is created, never in the size of the window.
enum ContentCost {
    /// Bytes counted per model for its structure: id, parent, attachment, kind and the JSON keys.
    static let modelOverhead = 192

    /// The size of `text` as a JSON string literal (RFC 8259 escaping, as ``JSONString/literal(_:)``).
    static func of(_ text: String) -> Int {
        var size = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                size += 2
            case ..<0x20: size += 6
            default: size += 1
            }
        }
        return size
    }

    static func of(_ params: [String: String]) -> Int {
        params.reduce(2) { $0 + of($1.key) + of($1.value) + 2 }
    }

    static func of(_ content: DialogContent) -> Int {
        var size = of(content.title) + (content.message.map(of) ?? 0)
        for action in content.actions {
            size += of(action.id) + of(action.title) + 32 + action.commands.reduce(0) { $0 + of($1) }
        }
        return size
    }

    /// A spec and its whole subtree, as the commands that carry it would store it.
    static func of(_ spec: ModelSpec) -> Int {
        var size = modelOverhead + of(spec.screen) + of(spec.params) + (spec.title.map(of) ?? 0) + (spec.tag.map(of) ?? 0)
        if let presented = spec.presented { size += of(presented.model) }
        switch spec.content {
        case .screen: break
        case .stack(let path, _): size += path.reduce(0) { $0 + of($1.model) + ($1.transition.map(of) ?? 0) }
        case .tabs(let tabs, _): size += tabs.reduce(0) { $0 + of($1.id) + of($1.title) + ($1.icon.map(of) ?? 0) + of($1.model) }
        case .switched(let child): size += of(child)
        case .alert(let content), .confirmationDialog(let content): size += of(content)
        case .custom(let kind, let children, _): size += of(kind) + children.reduce(0) { $0 + of($1) }
        }
        return size
    }

    /// A command as a dialog action or a scheduled batch stores it: the length of its JSON, which is what every
    /// message describing it carries, so no command needs a rule of its own. A command that cannot be encoded
    /// (none can: its numbers are finite) counts as ``unencodable``, more than any budget allows.
    static func of(_ command: NavigationCommand) -> Int {
        guard let json = try? JSONOutput.encode(command) else { return unencodable }
        return 16 + json.count
    }

    /// The cost of a command that cannot be encoded.
    static let unencodable = 1 << 30

    /// A scheduled batch as the window lists it.
    static func of(_ batch: ScheduledBatch) -> Int {
        // The author (a bus name, at most 255 bytes, one per batch) is not counted: disowning changes no cost.
        64 + of(batch.id) + batch.commands.reduce(0) { $0 + 24 + of($1.command) }
    }

    static func of(_ reference: ModelReference) -> Int {
        switch reference {
        case .id: 24
        case .tag(let tag): of(tag) + 4
        }
    }

    /// One node's own content (its children have their own cost).
    static func of(node: Node) -> Int {
        var size = modelOverhead + of(node.screen) + of(node.params) + (node.title.map(of) ?? 0) + (node.tag.map(of) ?? 0)
        if let rendererState = node.rendererState { size += rendererState.cost }
        for params in node.paramsHistory { size += 16 + of(params) }
        switch node.kind {
        case .stack: size += node.path.reduce(0) { $0 + 16 + ($1.transition.map(of) ?? 0) }
        case .tabs: size += node.tabs.reduce(0) { $0 + 16 + of($1.id) + of($1.title) + ($1.icon.map(of) ?? 0) }
        case .alert, .confirmationDialog: size += node.dialog.map(of) ?? 0
        case .custom(let kind): size += of(kind) + 16 * node.customChildren.count
        case .screen, .switched: break
        }
        return size
    }
}
