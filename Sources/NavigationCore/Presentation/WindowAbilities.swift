/// What a renderer can offer the user right now (Window1 `CanGoBack`, `CanPop`, `CanDismiss`), in the
/// spirit of MPRIS's `CanGoNext`: a back button is enabled from these, not by trying and catching errors.
public struct WindowAbilities: Hashable, Sendable {
    /// `goBack` would change something (a route, an alert or dialog on top, or a tab the tabs' back behaviour
    /// goes to), decided by the rule `goBack` itself follows.
    public var canGoBack: Bool
    /// `stackDropLast` from the active model would pop.
    public var canPop: Bool
    /// `dismiss` from the active model would dismiss a presentation.
    public var canDismiss: Bool
}
