/// A validated bus name: unique (`:1.42`, assigned by the bus) or well-known (`org.navsession.Session1`).
///
/// Valid: `org.navsession.Demo`, `:1.42`, `org.freedesktop.DBus`, `a.b-c`.
/// Invalid: `org` (one element), `.org.x`, `org..x`, `org.1x`, ``, names over 255 bytes.
public typealias BusName = DBusName<BusNameRule>

/// The rule of a ``BusName``.
public enum BusNameRule: NameRule {
    public static var kind: ValidationError.Kind { .busName }
}

extension BusName {
    /// Whether this is a unique connection name (starts with `:`).
    public var isUnique: Bool { rawValue.utf8.first == UInt8(ascii: ":") }

    /// The message bus itself, `org.freedesktop.DBus`.
    public static var bus: BusName { BusName(trusted: "org.freedesktop.DBus") }
}
