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
    init(_ text: String) throws(Invalid) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            let following = next < text.endIndex ? text[next] : nil
            switch character {
            case "{" where following == "{", "}" where following == "}":
                literal.append(character)
                index = text.index(after: next)
            case "{":
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw Invalid(reason: "has a '{' without a matching '}' (write '{{' for a literal brace)")
                }
                let name = String(text[next..<close])
                guard RoutePattern.isValidName(name) else {
                    throw Invalid(reason: "has an invalid reference '{\(name)}'")
                }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(.parameter(name))
                index = text.index(after: close)
            case "}":
                throw Invalid(reason: "has a '}' without a matching '{' (write '}}' for a literal brace)")
            default:
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
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
        guard let template = try? Template(text) else { return text }
        return template.render(values)
    }
}
