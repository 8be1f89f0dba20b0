/// How a presented model fills its presenter's slot.
///
/// JSON: `{"kind":"sheet","detents":["medium"]}`, `{"kind":"fullScreenCover"}`, `{"kind":"alert"}`,
/// `{"kind":"confirmationDialog","sourceID":"deleteButton"}`, `{"kind":"custom","name":"popover"}`.
public enum PresentationStyle: Hashable, Sendable {
    /// A sheet with optional detents such as `medium` and `large` (empty means the renderer's default).
    case sheet(detents: [String])
    /// A full-screen cover.
    case fullScreenCover
    /// An alert; the presented model has kind ``ModelKind/alert``.
    case alert
    /// A confirmation dialog, optionally anchored at a view of the presenting screen.
    case confirmationDialog(sourceID: String?)
    /// An application-registered custom presentation kind.
    case custom(String)

    /// The short name used in the debug tree and JSON (`sheet`, `cover`, `alert`, `dialog`, or the custom name).
    public var debugName: String {
        switch self {
        case .sheet: "sheet"
        case .fullScreenCover: "cover"
        case .alert: "alert"
        case .confirmationDialog: "dialog"
        case .custom(let name): name
        }
    }
}

extension PresentationStyle: Codable {
    enum CodingKeys: String, CodingKey { case kind, detents, sourceID, name }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "sheet": self = .sheet(detents: try c.decodeIfPresent([String].self, forKey: .detents) ?? [])
        case "fullScreenCover": self = .fullScreenCover
        case "alert": self = .alert
        case "confirmationDialog":
            self = .confirmationDialog(sourceID: try c.decodeIfPresent(String.self, forKey: .sourceID))
        case "custom": self = .custom(try c.decode(String.self, forKey: .name))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription:
                    "unknown presentation kind \"\(kind)\"; expected sheet, fullScreenCover, alert, confirmationDialog, custom or browser"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .sheet(let detents):
            try c.encode("sheet", forKey: .kind)
            try c.encode(detents, forKey: .detents)
        case .fullScreenCover: try c.encode("fullScreenCover", forKey: .kind)
        case .alert: try c.encode("alert", forKey: .kind)
        case .confirmationDialog(let sourceID):
            try c.encode("confirmationDialog", forKey: .kind)
            try c.encodeIfPresent(sourceID, forKey: .sourceID)
        case .custom(let name):
            try c.encode("custom", forKey: .kind)
            try c.encode(name, forKey: .name)
        }
    }
}
