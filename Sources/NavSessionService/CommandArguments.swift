import NavigationCore
import NavigationSession

/// Turns Window1's shell-friendly arguments into NavigationCore values.
enum CommandArguments {
    /// A model id argument (`t`); 0 means "the active model" where the method allows it.
    /// A model given as text: a decimal id (`12`, or `#12` as the daemon's messages write it) or `tag:<tag>`
    /// (Window1 `PresentOn`).
    static func modelReference(_ text: String) throws(SessionError) -> ModelReference {
        if let reference = ModelReference(tagReference: text) {
            guard text.utf8.count > ModelReference.tagPrefix.utf8.count else { throw .invalidArguments("the tag is empty") }
            return reference
        }
        guard let raw = Int(text.hasPrefix("#") ? String(text.dropFirst()) : text), raw > 0 else {
            throw .invalidArguments("model '\(text.prefix(64))' is neither a model id nor \"tag:<tag>\"")
        }
        return .id(ModelID(rawValue: raw))
    }

    static func modelID(_ value: UInt64) throws(SessionError) -> ModelID {
        guard let raw = Int(exactly: value) else { throw .invalidArguments("model id \(value) is out of range") }
        return ModelID(rawValue: raw)
    }

    /// Dialog actions from `id:title` or `id:title:role` (role `cancel` or `destructive`). `\:` is a
    /// colon and `\\` a backslash inside a field, so a title can hold any text (`ok:Note\: read me`).
    static func actions(_ texts: [String]) throws(SessionError) -> [DialogAction] {
        var actions: [DialogAction] = []
        for text in texts {
            let parts = try fields(of: text)
            guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty else {
                throw .invalidArguments("action '\(text)' must be id:title or id:title:role (write \\: for a colon)")
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

    /// The `:`-separated fields of an action, with `\:` and `\\` unescaped.
    private static func fields(of text: String) throws(SessionError) -> [String] {
        var fields = [""]
        var escaped = false
        for character in text {
            if escaped {
                guard character == ":" || character == "\\" else {
                    throw .invalidArguments("action '\(text)': only \\: and \\\\ are escapes")
                }
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        guard !escaped else { throw .invalidArguments("action '\(text)' ends inside an escape") }
        return fields
    }

    /// The dialog to present: the manifest's dialog named `title` when no actions are given and one
    /// of that kind is declared, else the given title, message and actions.
    static func dialog(
        title: String, message: String, actions: [String], kind: DialogDeclaration.Kind, manifest: Manifest
    ) throws(SessionError) -> DialogContent {
        if actions.isEmpty, let declared = manifest.dialogs[title] {
            // A declared dialog keeps its kind: a confirmation dialog shown as an alert loses its anchor.
            guard declared.kind == kind else {
                throw .invalidArguments("dialog '\(title)' is declared as \(declared.kind.rawValue), not \(kind.rawValue)")
            }
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
