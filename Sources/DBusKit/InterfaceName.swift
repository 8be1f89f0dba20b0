internal import CDBus

/// A validated interface name such as `org.navsession.Window1`.
///
/// Valid: `org.navsession.Session1`, `org._7_zip.Plugin`.
/// Invalid: `org` (one element), `org.7zip`, `org..x`, `org.x-y`, `org.x.`.
public struct InterfaceName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name as a string.
    public let rawValue: String

    /// Validates `rawValue` as an interface name.
    /// - Throws: ``ValidationError`` with kind ``ValidationError/Kind/interfaceName``.
    public init(_ rawValue: String) throws(ValidationError) {
        try NameValidation.check(rawValue, .interfaceName, dbus_validate_interface)
        self.rawValue = rawValue
    }

    init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    /// `org.freedesktop.DBus`, the bus driver's interface.
    public static let bus = InterfaceName(trusted: "org.freedesktop.DBus")
    /// `org.freedesktop.DBus.Introspectable`.
    public static let introspectable = InterfaceName(trusted: "org.freedesktop.DBus.Introspectable")
    /// `org.freedesktop.DBus.Properties`.
    public static let properties = InterfaceName(trusted: "org.freedesktop.DBus.Properties")
    /// `org.freedesktop.DBus.ObjectManager`.
    public static let objectManager = InterfaceName(trusted: "org.freedesktop.DBus.ObjectManager")
    /// `org.freedesktop.DBus.Peer` (answered by libdbus itself).
    public static let peer = InterfaceName(trusted: "org.freedesktop.DBus.Peer")

    /// A readable form for logs and messages.
    public var description: String { rawValue }

    /// Orders by the raw string (for sorted listings).
    public static func < (lhs: InterfaceName, rhs: InterfaceName) -> Bool { lhs.rawValue < rhs.rawValue }
}
