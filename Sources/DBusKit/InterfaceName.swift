/// A validated interface name such as `org.navsession.Window1`.
///
/// Valid: `org.navsession.Session1`, `org._7_zip.Plugin`.
/// Invalid: `org` (one element), `org.7zip`, `org..x`, `org.x-y`, `org.x.`.
public typealias InterfaceName = DBusName<InterfaceNameRule>

/// The rule of an ``InterfaceName``.
public enum InterfaceNameRule: NameRule {
    public static var kind: ValidationError.Kind { .interfaceName }
}

extension InterfaceName {
    /// `org.freedesktop.DBus`, the bus driver's interface.
    public static var bus: InterfaceName { InterfaceName(trusted: "org.freedesktop.DBus") }
    /// `org.freedesktop.DBus.Introspectable`.
    public static var introspectable: InterfaceName { InterfaceName(trusted: "org.freedesktop.DBus.Introspectable") }
    /// `org.freedesktop.DBus.Properties`.
    public static var properties: InterfaceName { InterfaceName(trusted: "org.freedesktop.DBus.Properties") }
    /// `org.freedesktop.DBus.ObjectManager`.
    public static var objectManager: InterfaceName { InterfaceName(trusted: "org.freedesktop.DBus.ObjectManager") }
    /// `org.freedesktop.DBus.Peer` (answered by libdbus itself).
    public static var peer: InterfaceName { InterfaceName(trusted: "org.freedesktop.DBus.Peer") }
}
