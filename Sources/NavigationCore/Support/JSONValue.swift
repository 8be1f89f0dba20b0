/// Any JSON value, kept verbatim where the session stores a declaration it passes on as JSON text.
///
/// The manifest keeps its `deepLinks` object as a `JSONValue` so that it round-trips unchanged and can
/// be handed to `DeepLinkRouter(json:)`. Object key order is not preserved (JSON objects are unordered);
/// numbers are doubles.
public enum JSONValue: Hashable, Sendable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        // The decoder cannot say what a value is, so each kind is tried until one fits, and every miss
        // builds and throws an error: strings and objects, most of any declaration, are tried first
        // (a 10 000-route manifest spent a third of its loading time on misses).
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(String.self) {
            self = .string(value)
        } else if let value = try? c.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? c.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .number(try c.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let value): try c.encode(value)
        case .number(let value): try c.encode(value)
        case .string(let value): try c.encode(value)
        case .array(let value): try c.encode(value)
        case .object(let value): try c.encode(value)
        }
    }
}
