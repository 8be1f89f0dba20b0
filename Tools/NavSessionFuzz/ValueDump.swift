import DBusKit

/// Short, readable renderings of possibly huge values: long strings and arrays are cut and their sizes
/// given, so a failure report stays a few lines long.
enum ValueDump {
    static let stringLimit = 80
    static let elementLimit = 4

    static func text(_ value: Value, depth: Int = 0) -> String {
        guard depth < 6 else { return "…" }
        switch value {
        case .byte(let v): return "y \(v)"
        case .boolean(let v): return "b \(v)"
        case .int16(let v): return "n \(v)"
        case .uint16(let v): return "q \(v)"
        case .int32(let v): return "i \(v)"
        case .uint32(let v): return "u \(v)"
        case .int64(let v): return "x \(v)"
        case .uint64(let v): return "t \(v)"
        case .double(let v): return "d \(v)"
        case .string(let v): return "s " + string(v)
        case .objectPath(let v): return "o " + string(v.rawValue)
        case .signature(let v): return "g " + string(v.rawValue)
        case .unixFD(let v): return "h fd\(v)"
        case .array(let type, let elements):
            let items = elements.prefix(elementLimit).map { text($0, depth: depth + 1) }
            return "a\(type) " + list(items, total: elements.count, open: "[", close: "]")
        case .dictionary(let key, let valueType, let entries):
            let items = entries.prefix(elementLimit).map { text($0.key, depth: depth + 1) + ": " + text($0.value, depth: depth + 1) }
            return "a{\(key)\(valueType)} " + list(items, total: entries.count, open: "{", close: "}")
        case .structure(let fields):
            return list(fields.map { text($0, depth: depth + 1) }, open: "(", close: ")")
        case .variant(let inner):
            return "v<" + text(inner, depth: depth + 1) + ">"
        }
    }

    /// A quoted string, cut to ``stringLimit`` characters with its full size in bytes.
    static func string(_ string: String, limit: Int = stringLimit) -> String {
        let scalars = string.unicodeScalars
        guard scalars.count > limit else { return quoted(string) }
        let head = String(String.UnicodeScalarView(scalars.prefix(limit)))
        return quoted(head) + "…(\(string.utf8.count) bytes)"
    }

    private static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x2028...0x202E).contains(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func list(_ items: [String], total: Int? = nil, open: String, close: String) -> String {
        let count = total ?? items.count
        let shown = items.prefix(elementLimit).joined(separator: ", ")
        return open + shown + (count > elementLimit ? ", …(\(count) elements)" : "") + close
    }

    static func descriptorCount(_ value: Value) -> Int {
        switch value {
        case .unixFD: 1
        case .array(_, let elements): elements.reduce(0) { $0 + descriptorCount($1) }
        case .dictionary(_, _, let entries): entries.reduce(0) { $0 + descriptorCount($1.key) + descriptorCount($1.value) }
        case .structure(let fields): fields.reduce(0) { $0 + descriptorCount($1) }
        case .variant(let inner): descriptorCount(inner)
        default: 0
        }
    }
}
