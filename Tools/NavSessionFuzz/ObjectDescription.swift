import DBusKit

/// One object of the daemon as its `Introspect` reply describes it.
struct ObjectDescription: Sendable {
    var path: ObjectPath
    var interfaces: [InterfaceDescription]
    /// Child node names (one path element each).
    var children: [String]

    func interface(named name: String) -> InterfaceDescription? { interfaces.first { $0.name == name } }

    /// Whether the object implements more than the standard `org.freedesktop.DBus.*` interfaces.
    var hasOwnInterfaces: Bool { interfaces.contains { !$0.name.hasPrefix("org.freedesktop.DBus.") } }
}
