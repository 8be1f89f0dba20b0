/// A string with `{name}` references to deep-link parameters, e.g. `"{id}"` or `"item-{id}"`.
///
/// `{{` and `}}` stand for literal braces. A name is letters, digits and `_`, not starting with a
/// digit. Rendering replaces each reference with the parameter's canonical value; it yields `nil`
/// when a referenced parameter is absent (an optional query parameter without default), and the
/// caller then leaves the whole entry out.
struct Template: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case text(String)
        case parameter(String)
    }

    let parts: [Part]

    /// A parse failure, turned into ``DeepLinkDeclarationError/invalidTemplate(route:key:template:reason:)``.
    struct Invalid: Error {
        let reason: String
    }

    /// Parses a template.
    ///
    /// Braces are found among the UTF-8 bytes (a brace is one ASCII byte, never part of another character's
    /// encoding), so a template is parsed without grapheme breaking; it is parsed on every deep link it renders.
    init(_ text: String) throws(Invalid) {
        let bytes = Array(text.utf8)
        var parts: [Part] = []
        var literal: [UInt8] = []
        var index = 0
        func flushLiteral() {
            if !literal.isEmpty { parts.append(.text(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            let following = index + 1 < bytes.count ? bytes[index + 1] : nil
            switch byte {
            case UInt8(ascii: "{") where following == byte, UInt8(ascii: "}") where following == byte:
                literal.append(byte)
                index += 2
            case UInt8(ascii: "{"):
                guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw Invalid(reason: "has a '{' without a matching '}' (write '{{' for a literal brace)")
                }
                let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                guard RoutePattern.isValidName(name) else {
                    throw Invalid(reason: "has an invalid reference '{\(name)}'")
                }
                flushLiteral()
                parts.append(.parameter(name))
                index = close + 1
            case UInt8(ascii: "}"):
                throw Invalid(reason: "has a '}' without a matching '{' (write '}}' for a literal brace)")
            default:
                literal.append(byte)
                index += 1
            }
        }
        flushLiteral()
        self.parts = parts
    }

    /// The parameter names referenced, in order.
    var references: [String] {
        parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The text with every reference replaced, or `nil` if a referenced value is absent.
    func render(_ values: [String: String]) -> String? {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .parameter(let name):
                guard let value = values[name] else { return nil }
                result += value
            }
        }
        return result
    }

    /// Renders a template string that was validated when its route was declared.
    ///
    /// A string that does not parse (impossible after validation) is returned unchanged.
    static func render(_ text: String, _ values: [String: String]) -> String? {
        // Most entries are plain text: nothing to parse.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return text }
        guard let template = try? Template(text) else { return text }
        return template.render(values)
    }
}
