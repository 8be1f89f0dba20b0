internal import CDBus

/// A validated bus name: unique (`:1.42`, assigned by the bus) or well-known (`org.navsession.Session1`).
///
/// Valid: `org.navsession.Demo`, `:1.42`, `org.freedesktop.DBus`, `a.b-c`.
/// Invalid: `org` (one element), `.org.x`, `org..x`, `org.1x`, ``, names over 255 bytes.
public struct BusName: Sendable, Hashable, CustomStringConvertible {
    /// The name as a string.
    public let rawValue: String

    /// Validates `rawValue` as a bus name.
    /// - Throws: ``ValidationError`` with kind ``ValidationError/Kind/busName``.
    public init(_ rawValue: String) throws(ValidationError) {
        try NameValidation.check(rawValue, .busName, dbus_validate_bus_name)
        self.rawValue = rawValue
    }

    init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether this is a unique connection name (starts with `:`).
    public var isUnique: Bool { rawValue.utf8.first == UInt8(ascii: ":") }

    /// The message bus itself, `org.freedesktop.DBus`.
    public static let bus = BusName(trusted: "org.freedesktop.DBus")

    /// A readable form for logs and messages.
    public var description: String { rawValue }
}
