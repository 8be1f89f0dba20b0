import NavigationCore

/// Window1 `SetAppearance`'s arguments.
extension Session {
    /// Decodes an appearance object (`{"backButton":false,"tabBar":false}`), strictly: unknown keys and wrong
    /// types are errors, naming the key.
    /// - Throws: ``SessionError/invalidCommand(_:)`` for bad JSON, ``SessionError/limitsExceeded(_:)`` past the JSON
    ///   size limit.
    public func appearance(json: String) throws(SessionError) -> Appearance {
        do throws(JSONInput.Failure) {
            return try JSONInput.decode(Appearance.self, from: json, limit: limits.maxJSONBytes)
        } catch {
            throw error.tooLong ? .limitsExceeded(error.message) : .invalidCommand("appearance: \(error.message)")
        }
    }

    /// A model argument given as text: `""` (the executing model), a decimal id or `"tag:<tag>"`.
    /// - Throws: ``SessionError/invalidArguments(_:)`` for anything else.
    public static func modelReference(text: String) throws(SessionError) -> ModelReference? {
        if text.isEmpty { return nil }
        if let reference = ModelReference(tagReference: text) { return reference }
        guard let id = Int(text), id > 0 else {
            throw .invalidArguments("model '\(text)' is not an id, \"tag:<tag>\" or \"\" (the active model)")
        }
        return .id(ModelID(rawValue: id))
    }
}
