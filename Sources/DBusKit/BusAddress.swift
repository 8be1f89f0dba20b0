/// Which bus to connect to.
public enum BusAddress: Sendable, Hashable {
    /// The session bus from `DBUS_SESSION_BUS_ADDRESS` (or libdbus's autolaunch rules).
    case session
    /// The system bus.
    case system
    /// An explicit address such as `unix:path=/tmp/dbus-XYZ,guid=...`, e.g. a ``PrivateBusDaemon``'s.
    case address(String)
}

/// A change in this connection's ownership of a well-known name, reported by the bus.
public enum NameEvent: Sendable, Hashable {
    /// The bus made this connection the primary owner (`NameAcquired`).
    case acquired(BusName)
    /// This connection stopped being the primary owner, e.g. it was replaced (`NameLost`).
    case lost(BusName)
}
