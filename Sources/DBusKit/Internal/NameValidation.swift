internal import CDBus

/// The one place where names are checked with libdbus's own validators (dbus-syntax.h).
///
/// Every validator runs a NUL check first: C would see only the part before the NUL, which could be valid
/// while the Swift string is not.
enum NameValidation {
    /// Checks `string` by libdbus's rule for `kind` (a name or an object path).
    static func check(_ string: String, _ kind: ValidationError.Kind) throws(ValidationError) {
        let validator: (UnsafePointer<CChar>?, UnsafeMutablePointer<DBusError>?) -> dbus_bool_t =
            switch kind {
            case .busName: dbus_validate_bus_name
            case .interfaceName: dbus_validate_interface
            case .memberName: dbus_validate_member
            case .errorName: dbus_validate_error_name
            default: dbus_validate_path
            }
        if string.containsNUL {
            throw ValidationError(kind, "\(quoted(string)) contains a NUL byte")
        }
        let valid = string.withCString { validator($0, nil) } != 0
        if !valid {
            throw ValidationError(kind, "\(quoted(string)) is not a valid \(kind)")
        }
    }

    static func checkString(_ string: String) throws(ValidationError) {
        if string.containsNUL {
            throw ValidationError(.string, "\(quoted(string)) contains a NUL byte")
        }
    }
}
