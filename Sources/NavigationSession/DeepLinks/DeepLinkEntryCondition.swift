import NavigationCore
import NavigationRouting

/// A deep-link route's own entry condition (manifest `deepLinks.routes[i].requires` / `.redirect`,
/// Docs/guards.md "Entry guards and redirects"): it replaces the scene's `deepLinkState` for that route.
///
/// `"requires": {"state": "main"}` — links of this route wait until the window's switched root shows `main`;
/// `"requires": {}` — they need no state, whatever the scene's `deepLinkState` says. `redirect` (optional, needs a
/// `state`) runs once, as one change, when a link of the route starts waiting.
public struct DeepLinkEntryCondition: Hashable, Sendable {
    /// The state the route's links need; `nil`: none (the route works in any state).
    public var state: String?
    /// What a link that has to wait does first (commands run from the active model); empty: nothing.
    public var redirect: [BatchCommand]

    /// Creates a condition.
    public init(state: String?, redirect: [BatchCommand] = []) {
        self.state = state
        self.redirect = redirect
    }
}

extension Manifest {
    /// The state a link of `route` into `scene` needs: the route's own `requires` when it declares one, else the
    /// scene's `deepLinkState`; `nil`: none.
    func linkState(route: String, scene: SceneDeclaration?) -> String? {
        if let condition = routeConditions[route] { return condition.state }
        return scene?.deepLinkState
    }

    /// The state the waiting deep link `url` needs (its route's, else its scene's); `nil` when the link no
    /// longer matches a route that needs one (then it never completes by itself).
    /// Without route conditions (the usual manifest) this is one lookup; with them, the URL is matched again,
    /// only while a link waits.
    func linkState(url: String, scene: SceneDeclaration?) -> String? {
        guard !routeConditions.isEmpty, let router, let plan = try? router.plan(for: url) else {
            return scene?.deepLinkState
        }
        return linkState(route: plan.route, scene: scene)
    }
}
