/// Flags for ``Bus/requestName(_:options:)`` (the D-Bus `RequestName` flags).
public struct RequestNameOptions: OptionSet, Sendable, Hashable {
    /// The `RequestName` flag bits.
    public let rawValue: UInt32
    /// Creates options from raw flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Let a later `replaceExisting` request take the name from us (`DBUS_NAME_FLAG_ALLOW_REPLACEMENT`).
    public static let allowReplacement = RequestNameOptions(rawValue: 0x1)
    /// Take the name from an owner that allowed replacement (`DBUS_NAME_FLAG_REPLACE_EXISTING`).
    public static let replaceExisting = RequestNameOptions(rawValue: 0x2)
    /// Fail with ``RequestNameReply/exists`` instead of queueing (`DBUS_NAME_FLAG_DO_NOT_QUEUE`).
    public static let doNotQueue = RequestNameOptions(rawValue: 0x4)
}

/// The bus's answer to `RequestName`.
public enum RequestNameReply: UInt32, Sendable, Hashable {
    /// We own the name now.
    case primaryOwner = 1
    /// Someone else owns it; we are queued and get `NameAcquired` later.
    case inQueue = 2
    /// Someone else owns it and we did not queue.
    case exists = 3
    /// We already owned it.
    case alreadyOwner = 4
}

/// The bus's answer to `ReleaseName`.
public enum ReleaseNameReply: UInt32, Sendable, Hashable {
    /// Released (or removed from the queue).
    case released = 1
    /// Nobody owns the name.
    case nonExistent = 2
    /// Someone else owns it.
    case notOwner = 3
}
