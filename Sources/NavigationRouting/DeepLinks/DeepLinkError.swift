/// Why a URL could not be turned into a ``DeepLinkPlan``.
///
/// Every case carries what a person needs to fix the link, e.g.
/// `route 'item': parameter 'id' is 'abc', expected an integer`.
public enum DeepLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is longer than ``DeepLinkRouter/maximumURLLength`` UTF-8 bytes.
    case urlTooLong(length: Int, limit: Int)
    /// The URL cannot be parsed; `reason` says what and where (e.g. an invalid `%` escape).
    case malformedURL(reason: String)
    /// The URL's scheme is not one the router handles; such URLs are effects for someone else.
    case wrongScheme(scheme: String, expected: [String])
    /// No declared pattern matches the URL's host and path; `path` is them joined with `/`.
    case unknownRoute(path: String)
    /// A required query parameter is absent.
    case missingParameter(route: String, parameter: String)
    /// A path or query value does not fit its declared type.
    case badParameterValue(route: String, parameter: String, value: String, expected: String)

    /// A one-line message saying what is wrong and what was expected.
    public var description: String {
        switch self {
        case .urlTooLong(let length, let limit):
            "URL is \(length) bytes long; deep links are limited to \(limit) bytes"
        case .malformedURL(let reason):
            "malformed URL: \(reason)"
        case .wrongScheme(let scheme, let expected):
            "scheme '\(scheme)' is not handled here (expected \(expected.joined(separator: " or ")))"
        case .unknownRoute(let path):
            "no route matches '\(path)'"
        case .missingParameter(let route, let parameter):
            "route '\(route)': missing required query parameter '\(parameter)'"
        case .badParameterValue(let route, let parameter, let value, let expected):
            "route '\(route)': parameter '\(parameter)' is '\(value)', expected \(expected)"
        }
    }
}
