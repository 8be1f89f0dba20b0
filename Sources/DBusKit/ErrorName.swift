internal import CDBus

/// A validated error name such as `org.navsession.Error.NoSuchWindow` (same rules as interface names).
///
/// Valid: `org.freedesktop.DBus.Error.Failed`, `org.example.Error.X`.
/// Invalid: `Failed` (one element), `org.example.Error.`, `org.example.1X`.
public struct ErrorName: Sendable, Hashable, CustomStringConvertible {
    /// The name as a string.
    public let rawValue: String

    /// Validates `rawValue` as an error name.
    /// - Throws: ``ValidationError`` with kind ``ValidationError/Kind/errorName``.
    public init(_ rawValue: String) throws(ValidationError) {
        try NameValidation.check(rawValue, .errorName, dbus_validate_error_name)
        self.rawValue = rawValue
    }

    init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    /// A readable form for logs and messages.
    public var description: String { rawValue }
}

extension ErrorName {
    private static func standard(_ suffix: String) -> ErrorName {
        ErrorName(trusted: "org.freedesktop.DBus.Error." + suffix)
    }

    /// Generic failure; also what any unmapped Swift error becomes.
    public static let failed = standard("Failed")
    /// Out of memory.
    public static let noMemory = standard("NoMemory")
    /// Wrong argument signature or bad argument values.
    public static let invalidArgs = standard("InvalidArgs")
    /// The object has no such method.
    public static let unknownMethod = standard("UnknownMethod")
    /// No object at that path.
    public static let unknownObject = standard("UnknownObject")
    /// The object does not implement that interface.
    public static let unknownInterface = standard("UnknownInterface")
    /// The interface has no such property.
    public static let unknownProperty = standard("UnknownProperty")
    /// The property cannot be set.
    public static let propertyReadOnly = standard("PropertyReadOnly")
    /// An application or bus limit was hit.
    public static let limitsExceeded = standard("LimitsExceeded")
    /// The caller is not allowed to do this.
    public static let accessDenied = standard("AccessDenied")
    /// The operation is not supported.
    public static let notSupported = standard("NotSupported")
    /// No reply arrived in time (generated locally by libdbus).
    public static let noReply = standard("NoReply")
    /// The name has no owner.
    public static let nameHasNoOwner = standard("NameHasNoOwner")
    /// No service owns or can be activated for the destination.
    public static let serviceUnknown = standard("ServiceUnknown")
    /// The connection is closed.
    public static let disconnected = standard("Disconnected")
    /// A signature argument is not valid.
    public static let invalidSignature = standard("InvalidSignature")
}
