/// A mark that keeps a model from being finished or suspended by any change (Docs/guards.md, "Protected models").
///
/// Set by ``NavigationCommand/protect(model:reason:dialog:owner:)`` and owned by the client that set it (its
/// unique bus name; `""` when the change came from no client, in process). JSON (a model's `"protection"`):
/// `{"reason":"unsaved text","dialog":"discardChanges","owner":":1.42"}`.
public struct Protection: Hashable, Sendable {
    /// Why the model is protected, shown to whoever is refused.
    public var reason: String
    /// The declared dialog to present when a change is refused; `nil` = none.
    public var dialog: String?
    /// The unique bus name of the client that owns the mark; `""` for no client.
    public var owner: String

    /// Creates a mark.
    public init(reason: String, dialog: String? = nil, owner: String = "") {
        self.reason = reason
        self.dialog = dialog
        self.owner = owner
    }
}

extension Protection: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: JSONKey.self)
        self.init(
            reason: try c.decode(String.self, forKey: "reason"), dialog: try c.decodeIfPresent(String.self, forKey: "dialog"),
            owner: try c.decodeIfPresent(String.self, forKey: "owner") ?? "")
        try StrictKeys.check(decoder, allowed: ["reason", "dialog", "owner"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONKey.self)
        try c.encodeIfPresent(dialog, forKey: "dialog")
        try c.encode(owner, forKey: "owner")
        try c.encode(reason, forKey: "reason")
    }
}
