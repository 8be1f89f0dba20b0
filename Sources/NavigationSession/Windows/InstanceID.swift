/// An instance id: `navsessiond --instance ID`, `NAVSESSION_INSTANCE`, or the SaveRestore
/// portal's `instance-id`. An instance keeps its own state directory, `<application's directory>@<ID>`.
public enum InstanceID {
    /// The longest id accepted.
    public static let maximumLength = 64

    /// Why `id` is not an instance id, or nil: 1…64 ASCII letters, digits, `-` and `_` (it becomes part of a
    /// directory name, so no `/`, `.` or anything a shell or a path would read otherwise).
    public static func problem(with id: String) -> String? {
        let bytes = Array(id.utf8)
        if bytes.isEmpty { return "an instance id cannot be empty" }
        if bytes.count > maximumLength { return "an instance id has at most \(maximumLength) characters (got \(bytes.count))" }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                return "an instance id holds only letters, digits, '-' and '_' (got '\(id)')"
            }
        }
        return nil
    }

    /// The state directory of instance `id` of the application whose directory is `directory`.
    public static func directory(_ directory: String, instance id: String) -> String { directory + "@" + id }
}
