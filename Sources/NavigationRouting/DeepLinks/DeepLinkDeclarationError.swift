/// Why a deep-link route declaration (Swift or JSON) was rejected.
///
/// Each case names the route (by its `name`) and the key at fault, e.g.
/// `route 'item': destination.push[0].params.id references unknown parameter 'itemID'`.
/// Keys are written as paths into the JSON form (`pattern`, `query[1].default`,
/// `destination.present[0].push[0].params.id`).
public enum DeepLinkDeclarationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON text is not valid, or does not have the expected shape; `detail` says where.
    case invalidJSON(detail: String)
    /// The router declares no URL scheme.
    case noSchemes
    /// A scheme is not `letter *(letter / digit / + / - / .)`.
    case invalidScheme(String)
    /// A route has an empty name.
    case emptyRouteName(index: Int)
    /// Two routes share a name.
    case duplicateRouteName(String)
    /// The pattern has an empty segment (e.g. `a//b` or a leading or trailing `/`).
    case emptyPatternSegment(route: String, pattern: String)
    /// A placeholder is not `:name` or `:name(type)`; `reason` says what is wrong.
    case invalidPlaceholder(route: String, placeholder: String, reason: String)
    /// A parameter name is used twice (two placeholders, two query parameters, or one of each).
    case duplicateParameter(route: String, name: String)
    /// A type is not `string`, `int`, `bool` or `enum:a|b|…`.
    case unknownType(route: String, parameter: String, type: String)
    /// A query parameter name is empty.
    case emptyQueryName(route: String, key: String)
    /// A required query parameter also declares a default.
    case requiredWithDefault(route: String, parameter: String)
    /// A default value does not fit its parameter's type.
    case invalidDefault(route: String, parameter: String, value: String, expected: String)
    /// A template string is not well formed (unbalanced braces, empty `{}`).
    case invalidTemplate(route: String, key: String, template: String, reason: String)
    /// A template references a parameter the route does not declare.
    case unknownTemplateParameter(route: String, key: String, parameter: String)
    /// A screen or scene name is empty.
    case emptyName(route: String, key: String)
    /// A presentation without `withNavigation` declares pushed screens.
    case pushWithoutNavigation(route: String, key: String)

    /// A one-line message naming the route and key.
    public var description: String {
        switch self {
        case .invalidJSON(let detail):
            "invalid route declarations: \(detail)"
        case .noSchemes:
            "no URL scheme declared (declare at least one, e.g. \"myapp\")"
        case .invalidScheme(let scheme):
            "invalid scheme '\(scheme)' (a letter, then letters, digits, '+', '-' or '.')"
        case .emptyRouteName(let index):
            "routes[\(index)]: route name is empty"
        case .duplicateRouteName(let name):
            "route '\(name)' is declared twice"
        case .emptyPatternSegment(let route, let pattern):
            "route '\(route)': pattern '\(pattern)' has an empty segment (no leading, trailing or double '/')"
        case .invalidPlaceholder(let route, let placeholder, let reason):
            "route '\(route)': pattern placeholder '\(placeholder)' \(reason)"
        case .duplicateParameter(let route, let name):
            "route '\(route)': parameter '\(name)' is declared twice"
        case .unknownType(let route, let parameter, let type):
            "route '\(route)': parameter '\(parameter)' has unknown type '\(type)' "
                + "(expected string, int, bool or enum:a|b)"
        case .emptyQueryName(let route, let key):
            "route '\(route)': \(key) is empty"
        case .requiredWithDefault(let route, let parameter):
            "route '\(route)': query parameter '\(parameter)' is required and cannot have a default"
        case .invalidDefault(let route, let parameter, let value, let expected):
            "route '\(route)': default '\(value)' of parameter '\(parameter)' is not \(expected)"
        case .invalidTemplate(let route, let key, let template, let reason):
            "route '\(route)': \(key) template '\(template)' \(reason)"
        case .unknownTemplateParameter(let route, let key, let parameter):
            "route '\(route)': \(key) references unknown parameter '\(parameter)'"
        case .emptyName(let route, let key):
            "route '\(route)': \(key) is empty"
        case .pushWithoutNavigation(let route, let key):
            "route '\(route)': \(key) pushes screens but the presentation has no navigation "
                + "(set withNavigation to true)"
        }
    }
}
