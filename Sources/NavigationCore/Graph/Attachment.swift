/// How a model hangs from its parent; the parent's container state is the source of truth.
///
/// JSON: `{"type":"root"}`, `{"type":"path","index":2}`, `{"type":"tab","tab":"home"}`,
/// `{"type":"switched"}`, `{"type":"custom","index":0}`, `{"type":"presented","style":{…}}`,
/// `{"type":"saved","screen":"main"}`.
public enum Attachment: Hashable, Sendable {
    /// The window root; it has no parent and is never finished.
    case root
    /// Element `index` of a stack's path (0 is the stack root).
    case path(index: Int)
    /// The child of the tab with this id.
    case tab(String)
    /// The switched model of a `switched` container.
    case switched
    /// Child `index` of a custom container.
    case custom(index: Int)
    /// The model sitting in its parent's presentation slot.
    case presented(PresentationStyle)
    /// A subtree a switched container keeps while it shows something else (a saved branch), under the screen
    /// name of its root: suspended, off the active branch, not addressable by commands until switched back to.
    case saved(String)

    /// A short text used by the debug tree: `root`, `path[1]`, `tab home`, `switched`, `custom[0]`, `sheet`, …
    public var debugLabel: String {
        switch self {
        case .root: "root"
        case .path(let index): "path[\(index)]"
        case .tab(let id): "tab \(id)"
        case .switched: "switched"
        case .custom(let index): "custom[\(index)]"
        case .saved(let screen): "saved \(screen)"
        case .presented(let style):
            if case .sheet(let detents) = style, !detents.isEmpty {
                "sheet \(detents.joined(separator: ","))"
            } else {
                style.debugName
            }
        }
    }
}

extension Attachment: Codable {
    enum CodingKeys: String, CodingKey { case type, index, tab, style, screen }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "root": self = .root
        case "path": self = .path(index: try c.decode(Int.self, forKey: .index))
        case "tab": self = .tab(try c.decode(String.self, forKey: .tab))
        case "switched": self = .switched
        case "custom": self = .custom(index: try c.decode(Int.self, forKey: .index))
        case "presented": self = .presented(try c.decode(PresentationStyle.self, forKey: .style))
        case "saved": self = .saved(try c.decode(String.self, forKey: .screen))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c,
                debugDescription:
                    "unknown attachment type \"\(type)\"; expected root, path, tab, switched, custom, presented or saved")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .root: try c.encode("root", forKey: .type)
        case .path(let index):
            try c.encode("path", forKey: .type)
            try c.encode(index, forKey: .index)
        case .tab(let id):
            try c.encode("tab", forKey: .type)
            try c.encode(id, forKey: .tab)
        case .switched: try c.encode("switched", forKey: .type)
        case .custom(let index):
            try c.encode("custom", forKey: .type)
            try c.encode(index, forKey: .index)
        case .presented(let style):
            try c.encode("presented", forKey: .type)
            try c.encode(style, forKey: .style)
        case .saved(let screen):
            try c.encode("saved", forKey: .type)
            try c.encode(screen, forKey: .screen)
        }
    }
}
