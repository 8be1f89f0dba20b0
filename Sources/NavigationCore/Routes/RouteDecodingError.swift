/// Why a JSON route list could not be read.
///
/// Every case says where the problem is (`element` is the zero-based index in the array) and what
/// was expected, so ``description`` is a message a person can act on, for example
/// `element 2: unknown style 'modal' (expected push, sheet or cover)`.
public enum RouteDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not JSON at all; `detail` is the parser's explanation.
    case malformedJSON(detail: String)
    /// The JSON is valid but its top level is not an array.
    case notAnArray
    /// An array element is not a JSON object.
    case notAnObject(element: Int)
    /// A required key (`style` or `screen`) is absent.
    case missingField(element: Int, field: String)
    /// A key holds a value of the wrong JSON type (`expected` is e.g. `string` or `boolean`).
    case wrongType(element: Int, field: String, expected: String)
    /// `style` is neither `push`, `sheet`, `cover` nor a presentation kind's name (ASCII letters, digits, `-_.`).
    case unknownStyle(element: Int, style: String)
    /// A key other than `style`, `screen`, `params` and `withNavigation`; `detail` names it and the key meant.
    case unknownKey(element: Int, detail: String)
    /// A push says `"withNavigation": true`, which only sheets and covers can have.
    case navigationOnPush(element: Int)
    /// `transition` is not a transition name (``PresentationSpec/transitionProblem(_:)`` says why).
    case invalidTransition(element: Int, problem: String)

    /// A one-line message naming the element, the key and what was expected.
    public var description: String {
        switch self {
        case .malformedJSON(let detail):
            "malformed JSON: \(detail)"
        case .notAnArray:
            "expected a JSON array of routes"
        case .notAnObject(let element):
            "element \(element): expected an object like {\"style\":\"push\",\"screen\":\"a\"}"
        case .missingField(let element, let field):
            "element \(element): missing '\(field)'"
        case .wrongType(let element, let field, let expected):
            "element \(element): '\(field)' must be a \(expected)"
        case .unknownStyle(let element, let style):
            "element \(element): unknown style '\(style)' (expected push, sheet, cover or a presentation kind's name)"
        case .unknownKey(let element, let detail):
            "element \(element): \(detail)"
        case .navigationOnPush(let element):
            "element \(element): 'withNavigation' is only allowed for presentations"
        case .invalidTransition(let element, let problem):
            "element \(element): \(problem)"
        }
    }
}
