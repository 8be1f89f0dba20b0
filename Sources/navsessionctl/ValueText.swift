import DBusKit
import FoundationEssentials
import NavigationCore

/// Compact, JSON-like text for D-Bus values (used by `--dry-run` and `watch`).
enum ValueText {
    /// Renders a value: strings JSON-quoted, numbers and booleans bare, arrays `[…]`, dictionaries `{…}`.
    static func render(_ value: Value) -> String {
        switch value {
        case .byte(let v): String(v)
        case .boolean(let v): String(v)
        case .int16(let v): String(v)
        case .uint16(let v): String(v)
        case .int32(let v): String(v)
        case .uint32(let v): String(v)
        case .int64(let v): String(v)
        case .uint64(let v): String(v)
        case .double(let v): String(v)
        case .string(let v): JSONString.literal(v)
        case .objectPath(let v): JSONString.literal(v.rawValue)
        case .signature(let v): JSONString.literal(v.rawValue)
        case .unixFD(let v): "fd:\(v)"
        case .array(_, let elements): "[" + elements.map(render).joined(separator: ",") + "]"
        case .dictionary(_, _, let entries):
            "{" + entries.map { "\(render($0.key)):\(render($0.value))" }.joined(separator: ",") + "}"
        case .structure(let fields): "(" + fields.map(render).joined(separator: ",") + ")"
        case .variant(let inner): render(inner)
        }
    }

}
