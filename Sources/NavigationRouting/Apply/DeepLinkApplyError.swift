import NavigationCore

/// Why a ``DeepLinkPlan`` cannot be turned into commands for a given window.
///
/// The plan itself is valid (the router produced it); the window it is applied to does not have
/// what the destination needs. Every message says what is missing and what would fix it, e.g.
/// `the destination selects tab 'settings' but the window's tab container has tabs home, search`.
public enum DeepLinkApplyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The window was closed; it accepts no commands.
    case windowClosed
    /// The destination selects `tab`, but no tab container is on the branch where it lands.
    case noTabs(tab: String)
    /// The tab container on the branch (model `tabs`) has no tab with this id; `available` lists its tab ids.
    case unknownTab(tab: String, tabs: ModelID, available: [String])
    /// The destination pushes `screen` (its first pushed screen), but no stack is on the branch where it lands.
    case noStack(screen: String)
    /// The destination has `reset: false` and pushes or presents, but an alert or confirmation
    /// dialog (`model`, of kind `kind`: `alert` or `confirmationDialog`) is open on the active branch.
    case blockedByDialog(model: ModelID, kind: String)
    /// `destination.present[index]` has pre-pushed screens but is not `withNavigation`, so it has
    /// no stack to hold them (a router never produces this; hand-built plans can).
    case pushWithoutNavigation(index: Int)

    /// A one-line message a person can act on.
    public var description: String {
        switch self {
        case .windowClosed:
            "the window is closed; apply the deep link to another window of the scene or open a new one"
        case .noTabs(let tab):
            "the destination selects tab '\(tab)' but the window has no tab container where it lands"
                + " (remove 'tab' from the route or open a window of a scene with tabs)"
        case .unknownTab(let tab, let tabs, let available):
            "the destination selects tab '\(tab)' but the window's tab container (model \(tabs)) has tabs "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .noStack(let screen):
            "the destination pushes '\(screen)' but the window has no navigation stack where it lands"
                + " (make that branch a stack, or present the screen instead of pushing it)"
        case .blockedByDialog(let model, let kind):
            "\(kind == "alert" ? "an alert" : "a confirmation dialog") (model \(model)) is open and the destination"
                + " has reset: false; dismiss it first or declare the route with reset: true"
        case .pushWithoutNavigation(let index):
            "destination.present[\(index)] pushes screens but is not withNavigation; set withNavigation: true"
        }
    }
}
