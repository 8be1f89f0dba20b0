import NavigationCore
import NavigationSession

/// Turns Window1's shell-friendly arguments into NavigationCore values.
enum CommandArguments {
    /// A model id argument (`t`); 0 means "the active model" where the method allows it.
    static func modelID(_ value: UInt64) throws(SessionError) -> ModelID {
        guard let raw = Int(exactly: value) else { throw .invalidArguments("model id \(value) is out of range") }
        return ModelID(rawValue: raw)
    }

    /// Checks `params` against the manifest's declaration of `screen` (undeclared screens: anything goes).
    /// - Throws: ``SessionError/invalidArguments(_:)`` naming the missing or undeclared parameter.
    static func validate(screen: String, params: [String: String], manifest: Manifest) throws(SessionError) {
        guard let declaration = manifest.screen(screen) else { return }
        if let missing = declaration.required.first(where: { params[$0] == nil }) {
            throw .invalidArguments("screen '\(screen)' requires parameter '\(missing)'")
        }
        let known = Set(declaration.required).union(declaration.optional)
        if let unknown = params.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidArguments("screen '\(screen)' has no parameter '\(unknown)'")
        }
    }

    /// Dialog actions from `id:title` or `id:title:role` (role `cancel` or `destructive`).
    static func actions(_ texts: [String]) throws(SessionError) -> [DialogAction] {
        var actions: [DialogAction] = []
        for text in texts {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, !parts[0].isEmpty else {
                throw .invalidArguments("action '\(text)' must be id:title or id:title:role")
            }
            var role: ActionRole?
            if parts.count == 3 {
                guard let parsed = ActionRole(rawValue: parts[2]) else {
                    throw .invalidArguments("action '\(text)': role must be cancel or destructive")
                }
                role = parsed
            }
            actions.append(DialogAction(id: parts[0], title: parts[1], role: role))
        }
        return actions
    }

    /// The dialog to present: the manifest's dialog named `title` when no actions are given and one
    /// of that kind is declared, else the given title, message and actions.
    static func dialog(
        title: String, message: String, actions: [String], kind: DialogDeclaration.Kind, manifest: Manifest
    ) throws(SessionError) -> DialogContent {
        if actions.isEmpty, let declared = manifest.dialogs[title], declared.kind == kind {
            return declared.content
        }
        return DialogContent(title: title, message: message.isEmpty ? nil : message, actions: try Self.actions(actions))
    }

    /// A message payload from an `a{ss}`: empty, the single `payload` value, or the dictionary as JSON.
    static func payload(_ dictionary: [String: String]) -> String {
        if dictionary.isEmpty { return "" }
        if dictionary.count == 1, let payload = dictionary["payload"] { return payload }
        let body = dictionary.sorted { $0.key < $1.key }.map { "\(JSONString.literal($0.key)):\(JSONString.literal($0.value))" }
        return "{" + body.joined(separator: ",") + "}"
    }

}
