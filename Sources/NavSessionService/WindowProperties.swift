import NavigationCore
import NavigationRouting
import NavigationSession

/// The values of one window's Window1 properties, compared after each operation so `PropertiesChanged`
/// lists only what differs.
struct WindowProperties: Sendable, Equatable {
    var scene: String
    var title: String
    var version: UInt64
    var activeScreen: String
    var activeModel: UInt64
    var routesJSON: String
    var selectedTab: String
    var abilities: WindowAbilities
    var pendingDeepLink: String

    /// Reads the properties of `window` (O(active branch)).
    init(_ window: SessionWindow, session: Session) {
        scene = window.scene
        title = (try? session.title(of: window.number)) ?? ""
        version = UInt64(clamping: window.version)
        activeScreen = window.activeScreen
        activeModel = UInt64(clamping: window.graph.activeModelID.rawValue)
        routesJSON = Route.json(window.graph.routes)
        selectedTab = window.selectedTab
        abilities = window.graph.abilities
        pendingDeepLink = window.pendingDeepLink ?? ""
    }

    /// Names of the properties that differ between `self` and `other` (Version first).
    func differences(from other: WindowProperties) -> [String] {
        var names: [String] = []
        if version != other.version { names.append("Version") }
        if title != other.title { names.append("Title") }
        if activeScreen != other.activeScreen { names.append("ActiveScreen") }
        if activeModel != other.activeModel { names.append("ActiveModel") }
        if routesJSON != other.routesJSON { names.append("Routes") }
        if selectedTab != other.selectedTab { names.append("SelectedTab") }
        if abilities.canGoBack != other.abilities.canGoBack { names.append("CanGoBack") }
        if abilities.canPop != other.abilities.canPop { names.append("CanPop") }
        if abilities.canDismiss != other.abilities.canDismiss { names.append("CanDismiss") }
        if pendingDeepLink != other.pendingDeepLink { names.append("PendingDeepLink") }
        return names
    }
}
