/// What sort of model a node is; decides which container fields it has.
///
/// In JSON the kind is a string: `"screen"`, `"stack"`, `"tabs"`, `"switched"`, `"alert"`,
/// `"confirmationDialog"` or `"custom"` (with the custom name in a separate `customKind` field).
public enum ModelKind: Hashable, Sendable {
    /// A plain screen with no children other than its presentation slot.
    case screen
    /// A navigation stack whose path element 0 is the stack's root screen.
    case stack
    /// A tab container: an ordered list of tabs and the selected tab id.
    case tabs
    /// A container showing exactly one switched model (e.g. login ↔ main).
    case switched
    /// A presented alert; always a leaf.
    case alert
    /// A presented confirmation dialog; always a leaf.
    case confirmationDialog
    /// An application-defined container that declares its children.
    case custom(String)

    /// The JSON tag of the kind (`"custom"` for every custom kind).
    public var tag: String {
        switch self {
        case .screen: "screen"
        case .stack: "stack"
        case .tabs: "tabs"
        case .switched: "switched"
        case .alert: "alert"
        case .confirmationDialog: "confirmationDialog"
        case .custom: "custom"
        }
    }
}
