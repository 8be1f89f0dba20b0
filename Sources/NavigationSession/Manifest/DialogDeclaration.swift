import NavigationCore

/// A named alert or confirmation dialog the application declares once and presents by name.
///
/// JSON (in the manifest's `dialogs` object, keyed by name):
/// `{"kind":"confirmationDialog","title":"Log out?","message":"…","actions":[{"id":"logout","title":"Log out",
/// "role":"destructive","commands":[{"command":"switchModel","model":{"screen":"login"}}]}]}`.
/// Action commands run from the presenter when the user picks the action; a `switchModel` to a declared
/// state name builds that state's structure.
public struct DialogDeclaration: Hashable, Sendable, Codable {
    /// Alert or confirmation dialog.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// An alert.
        case alert
        /// A confirmation dialog (action sheet).
        case confirmationDialog
    }

    /// How the dialog is presented.
    public var kind: Kind
    /// Title, message and actions.
    public var content: DialogContent

    /// Declares a dialog.
    public init(kind: Kind, content: DialogContent) {
        self.kind = kind
        self.content = content
    }

    enum CodingKeys: String, CodingKey { case kind }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        content = try DialogContent(from: decoder)
        try StrictKeys.check(decoder, allowed: ["kind", "title", "message", "actions"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try content.encode(to: encoder)
    }

    /// The presentation of this dialog (optionally anchored at `sourceID` for a confirmation dialog).
    public func presentation(sourceID: String? = nil) -> PresentationSpec {
        switch kind {
        case .alert: .alert(content)
        case .confirmationDialog: .confirmationDialog(content, sourceID: sourceID)
        }
    }
}
