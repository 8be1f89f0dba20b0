import NavigationCore
import NavigationRouting
import NavigationSession

/// The cached values of one window's Window1 properties (read by the property getters, compared
/// after each change so `PropertiesChanged` lists only what differs).
struct WindowProperties: Sendable, Equatable {
    var scene: String
    var title: String
    var version: UInt64
    var activeScreen: String
    var activeModel: UInt64
    var routes: [Route]
    var routesJSON: String
    var selectedTab: String

    /// Reads the properties of `window` (O(active branch)).
    init(window: NavigationWindow, scene: String, manifest: Manifest) {
        self.scene = scene
        let active = window.model(window.activeModelID)
        activeScreen = active?.screen ?? ""
        activeModel = UInt64(clamping: window.activeModelID.rawValue)
        title = active?.title ?? manifest.screen(activeScreen)?.title ?? activeScreen
        version = UInt64(clamping: window.version)
        routes = window.routes
        routesJSON = Route.json(routes)
        var tab = ""
        for id in window.activePath {
            if let selected = window.model(id)?.selectedTab {
                tab = selected
                break
            }
        }
        selectedTab = tab
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
        return names
    }
}
