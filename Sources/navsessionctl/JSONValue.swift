import FoundationEssentials
import NavigationCore

/// For the places that only need to know that text is JSON, or to compare documents whatever their key order
/// and spacing (`wait --routes`).
extension JSONValue {
    /// The document in `text`, or `nil` when it is not JSON (a bare scalar counts as a document).
    init?(parsing text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    /// Compact text with sorted keys: equal documents give equal text.
    var canonicalText: String {
        // A value decoded from JSON always encodes (a parse yields no non-finite numbers).
        guard let data = try? JSONOutput.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
