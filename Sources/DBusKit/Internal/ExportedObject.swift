/// What the object server knows about one path.
struct ExportedObject {
    /// User interfaces in export order.
    var interfaces: [Interface]
    /// Whether this path implements `org.freedesktop.DBus.ObjectManager` for the paths below it.
    var isManager: Bool

    func interface(named name: String) -> Interface? {
        interfaces.first { $0.name.rawValue == name }
    }
}

/// The result of handling one call, before it is turned into a reply message.
enum CallOutcome {
    case values([Value], [SignatureType])
    case error(BusError)
    /// The reply's values are built by `finish` off the bus thread (a deferred method).
    case deferred(@Sendable () throws -> [Value], [SignatureType])
}
