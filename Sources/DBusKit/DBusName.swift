/// The D-Bus rule a ``DBusName`` is validated by: one per kind of name.
public protocol NameRule: Sendable {
    /// The kind a ``ValidationError`` names (and whose libdbus rule applies).
    static var kind: ValidationError.Kind { get }
}

/// A string validated by the D-Bus rule of its kind: ``BusName``, ``InterfaceName``, ``MemberName``,
/// ``ErrorName`` or ``ObjectPath``. One type, so the validation, the comparison and the description of every kind
/// are written once; what a kind adds (``ObjectPath/appending(_:)``, ``BusName/isUnique``, the standard names) is
/// an extension of its own.
public struct DBusName<Rule: NameRule>: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name as a string.
    public let rawValue: String

    /// Validates `rawValue` by the kind's rule.
    /// - Throws: ``ValidationError`` with the kind's ``ValidationError/Kind``.
    public init(_ rawValue: String) throws(ValidationError) {
        try NameValidation.check(rawValue, Rule.kind)
        self.rawValue = rawValue
    }

    /// A name known to be valid without checking: names DBusKit read from libdbus, and the package's own
    /// constants (a test introspects every declared member, so a bad constant cannot go unnoticed).
    package init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    /// A readable form for logs and messages.
    public var description: String { rawValue }

    /// Orders by the raw string (for sorted listings).
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
