/// A small JSON tree the fuzzer builds, mutates and renders (numbers stay text, so `1e999` and
/// `18446744073709551616` render as written).
indirect enum JSONValue {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func int<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

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

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quote(_ string: String, into out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// The members or elements, for mutation.
    var children: [JSONValue] {
        switch self {
        case .array(let elements): elements
        case .object(let members): members.map(\.1)
        default: []
        }
    }
}
