/// Failures the service itself detects (before or around NavigationCore and NavigationRouting).
///
/// Temporary: NavigationSession's `SessionError` will carry these cases; ``ErrorMapping`` turns both
/// into D-Bus error names.
public enum ServiceError: Error, Hashable, Sendable {
    /// `OpenWindow` (or an `openWindow` effect) named a scene the manifest does not declare.
    case unknownScene(String)
    /// No open window has this object path (or number).
    case unknownWindow(String)
    /// `Apply`'s batch or `ExecuteAt`'s command is not valid JSON of the documented form.
    case invalidBatch(String)
    /// An argument is malformed (unknown parameter key, bad action text, model id out of range…).
    case invalidArguments(String)
    /// A screen's required parameter is missing.
    case missingParameter(screen: String, parameter: String)
    /// Opening one more window would exceed the session's limit.
    case tooManyWindows(limit: Int)
    /// `ActivateAction` named an action the application does not offer.
    case unsupportedAction(String)
    /// The change could not be written to the state directory; nothing was applied.
    case persistenceFailed(String)
}
