import Glibc
/// A value was rejected in Swift before it could reach libdbus.
///
/// libdbus aborts the whole process when it is handed an invalid name, path, signature or string, so DBusKit
/// checks every such value first and throws this error instead. Handlers that let it escape reply
/// `org.freedesktop.DBus.Error.InvalidArgs`.
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of value was rejected.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name, for messages.
        public let description: String

        /// An object path such as `/org/navsession/Session1`.
        public static let objectPath = Kind(description: "object path")
        /// A unique (`:1.42`) or well-known (`org.navsession.Session1`) bus name.
        public static let busName = Kind(description: "bus name")
        /// An interface name such as `org.navsession.Window1`.
        public static let interfaceName = Kind(description: "interface name")
        /// A method, signal or property name such as `OpenWindow`.
        public static let memberName = Kind(description: "member name")
        /// An error name such as `org.navsession.Error.NoSuchWindow`.
        public static let errorName = Kind(description: "error name")
        /// A type signature such as `a{sv}`.
        public static let signature = Kind(description: "signature")
        /// A string that contains NUL or is not UTF-8.
        public static let string = Kind(description: "string")
        /// A value whose type does not match the type it is sent as.
        public static let value = Kind(description: "value")
        /// A bus address or match rule.
        public static let address = Kind(description: "address")
    }

    /// What kind of value was rejected.
    public let kind: Kind
    /// Why it was rejected, quoting the offending value where that is safe.
    public let message: String

    /// Creates an error for a rejected value.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A readable form for logs and messages.
    public var description: String { "invalid \(kind): \(message)" }
}

extension ValidationError: BusErrorConvertible {
    /// A rejected value escaping a handler is the caller's fault, so it maps to `InvalidArgs`.
    public var busError: BusError { BusError(.invalidArgs, description) }
}

/// Quotes a string for an error message, escaping NUL so logs stay readable.
func quoted(_ string: String) -> String {
    "'" + string.replacingNUL() + "'"
}

extension String {
    /// Whether the string contains a NUL byte, which C would silently truncate at.
    var containsNUL: Bool {
        // Checked for every name and string sent: memchr over the contiguous bytes.
        utf8.withContiguousStorageIfAvailable { utf8 in utf8.baseAddress.map { memchr($0, 0, utf8.count) != nil } ?? false }
            ?? utf8.contains(0)
    }

    func replacingNUL() -> String {
        containsNUL ? String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : self
    }
}
