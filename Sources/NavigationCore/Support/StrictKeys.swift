/// Unknown keys in client JSON are errors, not silently ignored: `"animate": false` meant for
/// `"animated"` once animated a change the caller asked not to animate.
///
/// Every `init(from:)` of a type read from client JSON (commands, batches, specs, routes, the manifest)
/// ends with ``check(_:allowed:)``. Flat objects that several types share (a batch entry is a command plus
/// `from` and `animated`) pass the wrapper's keys down, so the outermost object is checked exactly once.
package enum StrictKeys {
    /// Throws `DecodingError.dataCorrupted` naming the first unknown key of the object `decoder` reads
    /// (in sorted order, so the message is stable) and the key meant when one is close.
    package static func check(_ decoder: any Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard let key = unknown.first else { return }
        throw DecodingError.dataCorruptedError(
            forKey: JSONKey(key), in: container, debugDescription: message(unknown: key, allowed: allowed))
    }

    /// `unknown key "animate"; did you mean "animated"?` or the accepted keys.
    package static func message(unknown key: String, allowed: [String]) -> String {
        if let meant = Spelling.closest(to: key, in: allowed) {
            return "unknown key \"\(key)\"; did you mean \"\(meant)\"?"
        }
        let accepted = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
        return "unknown key \"\(key)\"; accepted keys: \(accepted)"
    }
}
