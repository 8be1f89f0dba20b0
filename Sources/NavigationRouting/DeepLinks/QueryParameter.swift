/// A declared query parameter of a deep-link route: its name, type and whether it must be given.
///
/// Undeclared query keys in a URL are ignored. A declared key given without a value (`?edit` or
/// `?edit=`) is present with the empty value (which a `bool` reads as `true`).
///
/// ```swift
/// QueryParameter.required("ref")
/// QueryParameter.optional("edit", .bool, default: "false")
/// ```
///
/// JSON form: `{"name":"edit","type":"bool","default":"false"}`, `{"name":"ref","required":true}`;
/// `type` defaults to `string`, `required` to `false`.
public struct QueryParameter: Sendable, Hashable {
    /// Whether the parameter must be present, and what to use when it is not.
    public enum Requirement: Sendable, Hashable {
        /// Absent → ``DeepLinkError/missingParameter(route:parameter:)``.
        case required
        /// Absent → no value; template entries that reference it are left out.
        case optional
        /// Absent → this value (checked against the type when the route is declared).
        case defaulted(String)
    }

    /// The query key.
    public var name: String
    /// The value type.
    public var type: ParameterType
    /// Whether the key must be given.
    public var requirement: Requirement

    /// Declares a query parameter.
    ///
    /// - Parameters:
    ///   - name: the query key.
    ///   - type: the value type (default `string`).
    ///   - requirement: required, optional or with a default.
    public init(_ name: String, type: ParameterType = .string, requirement: Requirement) {
        self.name = name
        self.type = type
        self.requirement = requirement
    }

    /// A parameter that must be present.
    ///
    /// - Parameters:
    ///   - name: the query key.
    ///   - type: the value type.
    /// - Returns: the declaration.
    public static func required(_ name: String, _ type: ParameterType = .string) -> QueryParameter {
        QueryParameter(name, type: type, requirement: .required)
    }

    /// A parameter that may be absent, with an optional default.
    ///
    /// - Parameters:
    ///   - name: the query key.
    ///   - type: the value type.
    ///   - defaultValue: the value used when the key is absent; `nil` for none.
    /// - Returns: the declaration.
    public static func optional(
        _ name: String, _ type: ParameterType = .string, default defaultValue: String? = nil
    ) -> QueryParameter {
        QueryParameter(name, type: type, requirement: defaultValue.map { .defaulted($0) } ?? .optional)
    }
}
