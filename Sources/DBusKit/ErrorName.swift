/// A validated error name such as `org.navsession.Error.NoSuchWindow` (same rules as interface names).
///
/// Valid: `org.freedesktop.DBus.Error.Failed`, `org.example.Error.X`.
/// Invalid: `Failed` (one element), `org.example.Error.`, `org.example.1X`.
public typealias ErrorName = DBusName<ErrorNameRule>

/// The rule of an ``ErrorName``.
public enum ErrorNameRule: NameRule {
    public static var kind: ValidationError.Kind { .errorName }
}

extension ErrorName {
    private static func standard(_ suffix: String) -> ErrorName {
        ErrorName(trusted: "org.freedesktop.DBus.Error." + suffix)
    }

    /// Generic failure; also what any unmapped Swift error becomes.
    public static var failed: ErrorName { standard("Failed") }
    /// Out of memory.
    public static var noMemory: ErrorName { standard("NoMemory") }
    /// Wrong argument signature or bad argument values.
    public static var invalidArgs: ErrorName { standard("InvalidArgs") }
    /// The object has no such method.
    public static var unknownMethod: ErrorName { standard("UnknownMethod") }
    /// No object at that path.
    public static var unknownObject: ErrorName { standard("UnknownObject") }
    /// The object does not implement that interface.
    public static var unknownInterface: ErrorName { standard("UnknownInterface") }
    /// The interface has no such property.
    public static var unknownProperty: ErrorName { standard("UnknownProperty") }
    /// The property cannot be set.
    public static var propertyReadOnly: ErrorName { standard("PropertyReadOnly") }
    /// An application or bus limit was hit.
    public static var limitsExceeded: ErrorName { standard("LimitsExceeded") }
    /// The caller is not allowed to do this.
    public static var accessDenied: ErrorName { standard("AccessDenied") }
    /// The operation is not supported.
    public static var notSupported: ErrorName { standard("NotSupported") }
    /// No reply arrived in time (generated locally by libdbus).
    public static var noReply: ErrorName { standard("NoReply") }
    /// The name has no owner.
    public static var nameHasNoOwner: ErrorName { standard("NameHasNoOwner") }
    /// No service owns or can be activated for the destination.
    public static var serviceUnknown: ErrorName { standard("ServiceUnknown") }
    /// The connection is closed.
    public static var disconnected: ErrorName { standard("Disconnected") }
    /// A signature argument is not valid.
    public static var invalidSignature: ErrorName { standard("InvalidSignature") }
}
