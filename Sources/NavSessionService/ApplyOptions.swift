import NavigationCore
import NavigationSession

/// The options of Window1 `Apply` and `Check` (`a{ss}`, so `dbus-send` can pass them): an unknown
/// option is an error, never ignored.
struct ApplyOptions {
    static let names = ["expected_version"]

    /// `expected_version`: apply only when the window is at exactly this version (compare-and-set).
    var expectedVersion: Int?

    init(_ options: [String: String]) throws(SessionError) {
        for key in options.keys.sorted() where !Self.names.contains(key) {
            let meant = Spelling.closest(to: key, in: Self.names).map { "; did you mean '\($0)'?" } ?? ""
            throw .invalidArguments("unknown option '\(key)'\(meant) (options: \(Self.names.joined(separator: ", ")))")
        }
        if let text = options["expected_version"] {
            guard let version = Int(text), version >= 0 else {
                throw .invalidArguments("expected_version must be a version number, not '\(text)'")
            }
            expectedVersion = version
        }
    }
}
