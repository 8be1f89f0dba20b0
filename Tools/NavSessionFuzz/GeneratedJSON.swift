import NavigationCore

/// A small JSON tree the fuzzer builds, mutates and renders (numbers stay text, so `1e999` and
/// `18446744073709551616` render as written).
///
/// Not NavigationCore's `JSONValue`, which holds parsed JSON (numbers as `Double`, objects unordered): the
/// fuzzer must write what a parser rejects or overflows, with members in the order it chose. Its strings are
/// written by the project's one escaping rule (`JSONString`).
indirect enum GeneratedJSON {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([GeneratedJSON])
    case object([(String, GeneratedJSON)])

    static func int<T: BinaryInteger>(_ value: T) -> GeneratedJSON { .number(String(value)) }

    /// The JSON text; shallow trees only (deep nesting is built as text by ``JSONGenerator``).
    var text: String {
        var out = ""
        render(into: &out)
        return out
    }

    func render(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let string): Self.quote(string, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.render(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(member.0, into: &out)
                out += ":"
                member.1.render(into: &out)
            }
            out += "}"
        }
    }

    /// A JSON string literal, as the project writes every string (`JSONString.literal`).
    static func quote(_ string: String, into out: inout String) {
        out += JSONString.literal(string)
    }

    /// The members or elements, for mutation.
    var children: [GeneratedJSON] {
        switch self {
        case .array(let elements): elements
        case .object(let members): members.map(\.1)
        default: []
        }
    }
}
