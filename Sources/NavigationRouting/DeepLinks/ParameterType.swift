/// The type of a deep-link parameter: how its text is checked and written into templates.
///
/// The textual form, used in patterns (`:id(int)`) and in JSON (`"type": "int"`), is one of
/// `string`, `int`, `bool` or `enum:a|b|c`.
///
/// - `string`: any text (a path segment is never empty; a query value may be).
/// - `int`: an optional sign and decimal digits within 64 bits; written back in canonical form
///   (`+007` → `7`).
/// - `bool`: `true`/`false`/`1`/`0`, case-insensitive; a query key given without a value
///   (`?edit` or `?edit=`) means `true`. Written back as `true` or `false`.
/// - `enum`: exactly one of the listed values (case-sensitive).
///
/// ```swift
/// try ParameterType(parsing: "enum:home|search") == .oneOf(["home", "search"])
/// ParameterType.int.canonical("+42")  // "42"
/// ```
public enum ParameterType: Sendable, Hashable {
    /// Any text.
    case string
    /// A 64-bit signed decimal integer.
    case int
    /// A boolean.
    case bool
    /// One of a fixed list of values.
    case oneOf([String])

    /// Parses the textual form (`string`, `int`, `bool`, `enum:a|b`).
    ///
    /// - Parameter text: the type as written in a pattern or in JSON.
    /// - Returns: `nil` when the text names no type, or an enum lists an empty value.
    public init?(parsing text: String) {
        switch text {
        case "string": self = .string
        case "int": self = .int
        case "bool": self = .bool
        default:
            guard text.hasPrefix("enum:") else { return nil }
            let values = text.dropFirst("enum:".count).split(separator: "|", omittingEmptySubsequences: false)
            guard !values.contains(where: \.isEmpty) else { return nil }
            self = .oneOf(values.map(String.init))
        }
    }

    /// The textual form, the inverse of ``init(parsing:)``.
    public var name: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .bool: "bool"
        case .oneOf(let values): "enum:" + values.joined(separator: "|")
        }
    }

    /// What a person should write, for error messages (e.g. `an integer`, `one of home, search`).
    public var expectation: String {
        switch self {
        case .string: "text"
        case .int: "an integer"
        case .bool: "true or false"
        case .oneOf(let values): "one of " + values.joined(separator: ", ")
        }
    }

    /// Checks a value and returns its canonical text.
    ///
    /// The empty value is valid for `string` and means `true` for `bool` (the `?flag` form).
    ///
    /// - Parameter value: the decoded text from the URL or a declared default.
    /// - Returns: the canonical text, or `nil` when the value does not fit the type.
    public func canonical(_ value: String) -> String? {
        switch self {
        case .string:
            return value
        case .int:
            return Int(value).map(String.init)
        case .bool:
            switch value.lowercased() {
            case "", "true", "1": return "true"
            case "false", "0": return "false"
            default: return nil
            }
        case .oneOf(let values):
            return values.contains(value) ? value : nil
        }
    }
}
