import NavigationCore

/// A navigation kept until an entry condition holds (Docs/guards.md, "Entry guards and redirects"): it completes
/// by itself, as a change of its own, right after a change leaves the window's switched root in ``state``.
public enum PendingNavigation: Hashable, Sendable {
    /// A deep link whose route's `requires` (else its scene's `deepLinkState`) the window did not show (Window1
    /// `PendingDeepLink`).
    case deepLink(String)
    /// Commands that would have started `screen`, whose `requires` names `state`.
    case commands([BatchCommand], screen: String, state: String)

    /// The state the window's switched root must show for it to complete: a deep link's route's `requires`, else
    /// its scene's `deepLinkState`; `nil` when neither declares one any more (then it never completes by itself).
    func state(in manifest: Manifest, scene: SceneDeclaration?) -> String? {
        switch self {
        case .deepLink(let url): manifest.linkState(url: url, scene: scene)
        case .commands(_, _, let state): state
        }
    }

    /// Window1 `PendingNavigation`: `{"state":…,"url":…}` or `{"commands":[…],"screen":…,"state":…}` (sorted keys).
    func json(state: String?) -> String {
        var fields: [(String, String)] = []
        switch self {
        case .deepLink(let url):
            if let state { fields.append(("state", JSONOutput.string(state))) }
            fields.append(("url", JSONOutput.string(url)))
        case .commands(let batch, let screen, let state):
            fields.append(("commands", JSONOutput.string(batch)))
            fields.append(("screen", JSONOutput.string(screen)))
            fields.append(("state", JSONOutput.string(state)))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
