import DBusKit
import NavigationCore
import NavigationSession

/// The values of one window's Window1 properties, compared after each operation so `PropertiesChanged`
/// lists only what differs, with the values computed here (no property getter runs for the signal).
///
/// `Routes` is not here: its value grows with the window, so it is announced as invalidated
/// (`EmitsChangedSignal=invalidates`) when a change has graph steps, and computed only when read.
struct WindowProperties: Sendable, Equatable {
    var scene: String
    var title: String
    var version: UInt64
    var activeScreen: String
    var activeModel: UInt64
    var selectedTab: String
    var abilities: WindowAbilities
    var pendingDeepLink: String

    /// Reads the properties of `window` (O(active branch)).
    init(_ window: SessionWindow, session: Session) {
        // The active model once: each property would otherwise walk the active branch again.
        let activeID = window.graph.activeModelID
        let active = window.graph.model(activeID)
        scene = window.scene
        title = session.title(of: active)
        version = UInt64(clamping: window.version)
        activeScreen = active?.screen ?? ""
        activeModel = UInt64(clamping: activeID.rawValue)
        selectedTab = window.selectedTab
        abilities = window.graph.abilities
        pendingDeepLink = window.pendingDeepLink ?? ""
    }

    /// The properties that differ between `self` and `before`, with their new values (Version first).
    func changes(from before: WindowProperties, names: ServiceNames.Properties) -> [(name: MemberName, value: Value)] {
        var changes: [(name: MemberName, value: Value)] = []
        if version != before.version { changes.append((names.version, .uint64(version))) }
        if title != before.title { changes.append((names.title, .string(title))) }
        if activeScreen != before.activeScreen { changes.append((names.activeScreen, .string(activeScreen))) }
        if activeModel != before.activeModel { changes.append((names.activeModel, .uint64(activeModel))) }
        if selectedTab != before.selectedTab { changes.append((names.selectedTab, .string(selectedTab))) }
        if abilities.canGoBack != before.abilities.canGoBack {
            changes.append((names.canGoBack, .boolean(abilities.canGoBack)))
        }
        if abilities.canPop != before.abilities.canPop { changes.append((names.canPop, .boolean(abilities.canPop))) }
        if abilities.canDismiss != before.abilities.canDismiss {
            changes.append((names.canDismiss, .boolean(abilities.canDismiss)))
        }
        if pendingDeepLink != before.pendingDeepLink {
            changes.append((names.pendingDeepLink, .string(pendingDeepLink)))
        }
        return changes
    }
}

/// What one window's `PropertiesChanged` carries after an operation.
struct WindowPropertyChanges: Sendable {
    /// Properties with their new values.
    var changed: [(name: MemberName, value: Value)] = []
    /// Whether the route view may have changed (`Routes` is listed as invalidated).
    var routesInvalidated = false

    var isEmpty: Bool { changed.isEmpty && !routesInvalidated }
}
