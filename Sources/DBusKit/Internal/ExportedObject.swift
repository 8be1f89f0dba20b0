/// What the object server knows about one path.
struct ExportedObject {
    /// User interfaces in export order.
    var interfaces: [Interface]
    /// Whether this path implements `org.freedesktop.DBus.ObjectManager` for the paths below it.
    var isManager: Bool

    func interface(named name: String) -> Interface? {
        interfaces.first { $0.name.rawValue == name }
    }

    /// The method a call without an interface field reaches: the first user interface, in export order,
    /// that declares `member`.
    func method(named member: String) -> Interface.Method? {
        for declared in interfaces {
            if let method = declared.method(named: member) { return method }
        }
        return nil
    }
}

/// The result of handling one call, before it is turned into a reply message.
enum CallOutcome: Sendable {
    case values([Value], [SignatureType])
    case error(BusError)
}
