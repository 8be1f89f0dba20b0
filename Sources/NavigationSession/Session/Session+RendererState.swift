import NavigationCore

/// Window1 `SetRendererState`'s argument.
extension Session {
    /// Decodes a renderer state: a JSON object, strictly (a key given twice in one object is an error, as is
    /// anything but an object), at most ``RendererState/maxBytes`` bytes of text before any work is done.
    /// - Throws: ``SessionError/invalidCommand(_:)`` for bad JSON or not an object,
    ///   ``SessionError/limitsExceeded(_:)`` for text over the bound.
    public func rendererState(json text: String) throws(SessionError) -> RendererState {
        // The canonical form is never longer than a well-formed text without spaces; texts are bounded a little
        // more loosely so indentation is not an error, and the canonical form is checked when the command runs.
        let limit = min(limits.maxJSONBytes, 4 * RendererState.maxBytes)
        guard text.utf8.count <= limit else {
            throw .limitsExceeded(
                "the renderer state is \(text.utf8.count) bytes; at most \(RendererState.maxBytes) as compact JSON")
        }
        let rules = JSONSyntax.Rules(maxKeyBytes: RendererState.maxBytes, maxStringBytes: RendererState.maxBytes)
        if let failure = JSONSyntax.firstError(in: text, rules: rules) {
            switch failure.problem {
            case .keyTooLong, .stringTooLong:
                throw .limitsExceeded("renderer state: \(failure.reason); at most \(RendererState.maxBytes) bytes in all")
            case .syntax, .duplicateKey: break
            }
            throw .invalidCommand("renderer state: line \(failure.line), column \(failure.column): \(failure.reason)")
        }
        do throws(JSONInput.Failure) {
            return try JSONInput.decode(RendererState.self, from: text, limit: limit)
        } catch {
            throw error.tooLong ? .limitsExceeded(error.message) : .invalidCommand("renderer state: \(error.message)")
        }
    }
}
