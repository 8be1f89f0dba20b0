internal import CDBus

/// A validated method, signal or property name such as `OpenWindow`.
///
/// Valid: `OpenWindow`, `Ping`, `_private`, `Get2`.
/// Invalid: `` (empty), `2Get`, `Open.Window`, `Open-Window`, names over 255 bytes.
public struct MemberName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name as a string.
    public let rawValue: String

    /// Validates `rawValue` as a member name.
    /// - Throws: ``ValidationError`` with kind ``ValidationError/Kind/memberName``.
    public init(_ rawValue: String) throws(ValidationError) {
        try NameValidation.check(rawValue, .memberName, dbus_validate_member)
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
    public static func < (lhs: MemberName, rhs: MemberName) -> Bool { lhs.rawValue < rhs.rawValue }
}
