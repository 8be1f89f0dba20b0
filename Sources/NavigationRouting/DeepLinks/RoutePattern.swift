/// A parsed pattern over a deep link's host and path segments, e.g. `tabs/:tab/item/:id(int)`.
///
/// Segments are separated by `/`. A segment starting with `:` is a placeholder `:name` or
/// `:name(type)` (type as in ``ParameterType``, default `string`); any other segment is a literal
/// compared exactly with the decoded URL segment. The empty pattern matches a URL with neither host
/// nor path (`myapp://`).
///
/// ```swift
/// let pattern = try RoutePattern("detail/:id(int)", route: "detail")
/// pattern.placeholders  // [("id", .int)]
/// ```
public struct RoutePattern: Sendable, Hashable {
    /// One segment of a pattern.
    public enum Segment: Sendable, Hashable {
        /// Matches exactly this text.
        case literal(String)
        /// Matches one segment whose value fits `type`, captured as `name`.
        case placeholder(name: String, type: ParameterType)
    }

    /// The pattern as written.
    public let text: String
    /// The parsed segments, in order.
    public let segments: [Segment]

    /// Parses a pattern.
    ///
    /// - Parameters:
    ///   - text: the pattern, e.g. `tabs/:tab(enum:home|search)/item/:id(int)`.
    ///   - route: the route name, used in errors.
    /// - Throws: ``DeepLinkDeclarationError`` for an empty segment, a malformed placeholder, an
    ///   unknown type or a placeholder name used twice.
    public init(_ text: String, route: String) throws(DeepLinkDeclarationError) {
        self.text = text
        var segments: [Segment] = []
        var names: Set<String> = []
        if !text.isEmpty {
            for part in text.split(separator: "/", omittingEmptySubsequences: false) {
                guard !part.isEmpty else { throw .emptyPatternSegment(route: route, pattern: text) }
                let segment = try Self.segment(String(part), route: route)
                if case .placeholder(let name, _) = segment, !names.insert(name).inserted {
                    throw .duplicateParameter(route: route, name: name)
                }
                segments.append(segment)
            }
        }
        self.segments = segments
    }

    /// The placeholders in order, with their types.
    public var placeholders: [(name: String, type: ParameterType)] {
        segments.compactMap {
            if case .placeholder(let name, let type) = $0 { (name, type) } else { nil }
        }
    }

    /// The result of matching decoded URL segments against the pattern.
    enum Match: Equatable {
        /// Every segment matched; canonical placeholder values by name.
        case matched([String: String])
        /// Literals and count matched but a placeholder value does not fit its type.
        case badValue(parameter: String, value: String, type: ParameterType)
        /// Different count or a literal differs.
        case noMatch
    }

    /// Matches decoded segments; literals are checked before any value, so a literal mismatch is
    /// always `noMatch`.
    func match(_ values: [String]) -> Match {
        guard values.count == segments.count else { return .noMatch }
        for (segment, value) in zip(segments, values) {
            if case .literal(let literal) = segment, literal != value { return .noMatch }
        }
        var captured: [String: String] = [:]
        for (segment, value) in zip(segments, values) {
            guard case .placeholder(let name, let type) = segment else { continue }
            guard let canonical = type.canonical(value) else {
                return .badValue(parameter: name, value: value, type: type)
            }
            captured[name] = canonical
        }
        return .matched(captured)
    }

    private static func segment(_ part: String, route: String) throws(DeepLinkDeclarationError) -> Segment {
        guard part.hasPrefix(":") else { return .literal(part) }
        var body = part.dropFirst()
        var typeText = "string"
        if let open = body.firstIndex(of: "(") {
            guard body.hasSuffix(")") else {
                throw .invalidPlaceholder(route: route, placeholder: part, reason: "must end with ')' after its type")
            }
            typeText = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
            body = body[..<open]
        }
        let name = String(body)
        guard Self.isValidName(name) else {
            throw .invalidPlaceholder(
                route: route, placeholder: part,
                reason: "needs a name of letters, digits and '_' not starting with a digit")
        }
        guard let type = ParameterType(parsing: typeText) else {
            throw .unknownType(route: route, parameter: name, type: typeText)
        }
        return .placeholder(name: name, type: type)
    }

    /// Whether `name` is a valid parameter name: ASCII letters, digits and `_`, not starting with a digit.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}
