#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore
import NavigationSession

/// The options of Window1 `Apply` and `Check` (`a{ss}`, so `dbus-send` can pass them): an unknown
/// option is an error, never ignored.
struct ApplyOptions {
    static let names = ["expected_version", "transaction"]

    /// `transaction`: a JSON object, as text, carried with the change to every subscriber
    /// (in `Changed`'s `cause_json`) and kept in the journal; at most ``maxTransactionBytes`` bytes.
    var transaction: JSONValue?
    static let maxTransactionBytes = 4096

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
        if let text = options["transaction"] {
            guard text.utf8.count <= Self.maxTransactionBytes else {
                throw .invalidArguments(
                    "transaction is \(text.utf8.count) bytes; at most \(Self.maxTransactionBytes)")
            }
            guard let data = text.data(using: .utf8), let value = try? JSONDecoder().decode(JSONValue.self, from: data),
                  case .object = value
            else {
                throw .invalidArguments("transaction must be a JSON object, e.g. {\"animation\":\"spring\"}; got '\(text.prefix(64))'")
            }
            transaction = value
        }
    }
}
