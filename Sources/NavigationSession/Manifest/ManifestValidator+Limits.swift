import NavigationCore

/// Names and texts in a manifest get the limits they meet at run time (`GraphLimits`): a 64 MB title
/// or a 1 MB screen name would otherwise load, be held for the daemon's lifetime and go out in replies.
///
/// JSON text is also checked as a whole before decoding (every object key against the name limit, every
/// string against the text limit, `ManifestDocument.decode`); these checks name the key path, and cover
/// manifests built from Swift values.
extension ManifestValidator {
    static let limits = GraphLimits()

    func checkName(_ name: String, at key: String) throws(ManifestError) {
        let bytes = name.utf8.count
        guard bytes <= Self.limits.maxNameBytes else {
            throw .nameTooLong(key: key, bytes: bytes, limit: Self.limits.maxNameBytes)
        }
    }

    func checkText(_ text: String?, at key: String) throws(ManifestError) {
        guard let bytes = text?.utf8.count, bytes > Self.limits.maxTextBytes else { return }
        throw .textTooLong(key: key, bytes: bytes, limit: Self.limits.maxTextBytes)
    }

    /// Titles and every declared name, before the structural checks.
    func validateSizes() throws(ManifestError) {
        try checkText(document.title, at: "title")
        for (index, screen) in document.screens.enumerated() {
            let key = "screens[\(index)]"
            try checkName(screen.name, at: "\(key).name")
            try checkText(screen.title, at: "\(key).title")
            for (field, names) in [("required", screen.required), ("optional", screen.optional)] {
                for (position, name) in names.enumerated() { try checkName(name, at: "\(key).\(field)[\(position)]") }
            }
        }
        for (index, kind) in document.presentationKinds.enumerated() {
            try checkName(kind, at: "presentationKinds[\(index)]")
        }
        for (index, scene) in document.scenes.enumerated() {
            let key = "scenes[\(index)]"
            try checkName(scene.name, at: "\(key).name")
            try checkText(scene.title, at: "\(key).title")
            for name in scene.states.keys.sorted() { try checkName(name, at: "\(key).states") }
        }
        for name in document.dialogs.keys.sorted() { try checkName(name, at: "dialogs") }
    }
}
