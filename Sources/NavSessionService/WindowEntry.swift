import NavigationCore
import NavigationRouting

/// One open window of the session: its graph, scene, cached properties and waiting deep links.
final class WindowEntry {
    let number: Int
    let scene: String
    let window: NavigationWindow
    var properties: WindowProperties
    /// Deep links waiting for the window's switched root to show the scene's deep-link state.
    var pendingLinks: [DeepLinkPlan] = []
    /// The unique bus name of the client that asked for this window to close when it leaves.
    var closeOnExitOwner: String?

    init(number: Int, scene: String, window: NavigationWindow, properties: WindowProperties) {
        self.number = number
        self.scene = scene
        self.window = window
        self.properties = properties
    }
}
