import DBusKit
import NavSessionInterface
import NavigationCore

/// All `org.navsession.Window1` properties of a window at one moment (`Properties.GetAll`).
public struct WindowProperties: Sendable, Hashable {
    /// The window's scene (constant).
    public var scene: String
    /// The active alert's or dialog's headline, else the active model's title.
    public var title: String
    /// The window version.
    public var version: UInt64
    /// The active model's screen.
    public var activeScreen: String
    /// The active model.
    public var activeModel: ModelID
    /// The route view as JSON (as ``WindowProxy/getRoutes()``).
    public var routes: String
    /// The selected tab of the active branch, `""` when none.
    public var selectedTab: String
    /// Whether a back button would do something (``canPop`` or ``canDismiss``).
    public var canGoBack: Bool
    /// Whether `StackDropLast(1)` would pop.
    public var canPop: Bool
    /// Whether `Dismiss` would dismiss.
    public var canDismiss: Bool
    /// A deep link waiting for this window to reach a state where it applies, `""` when none.
    public var pendingDeepLink: String
    /// The tag of the nearest tagged model among the active model and its ancestors, `""` when none.
    public var activeTag: String
    /// The navigation waiting for an entry condition as JSON (`PendingNavigation`, Docs/guards.md), `""` when none.
    public var pendingNavigation: String
    /// The newest version a renderer reported settled (`SettledVersion`), 0 when none has.
    public var settledVersion: UInt64
    /// The renderer that follows the window (`SettledBy`: the last to report settled), `""` when none.
    public var settledBy: String
    /// Whether `goForward()` would re-enter a route (`CanGoForward`).
    public var canGoForward: Bool
    /// Whether `Undo` / `Redo` have something to do (`CanUndo`, `CanRedo`), and what Undo would take back
    /// (`UndoLabel`, "" when nothing).
    public var canUndo: Bool
    public var canRedo: Bool
    public var undoLabel: String
    /// The window group it belongs to (`Group`, Session1 `GroupWindows`), `""` when none.
    public var group: String
    /// The models prepared ahead of being shown (`Prepared`, ``WindowProxy/prepare(_:params:)``) as JSON, `"[]"` when none.
    public var prepared: String
    /// The models on screen (`VisibleModels`, Docs/panes.md).
    public var visibleModels: [ModelID]
    /// The registered renderers (`Renderers`, Docs/renderers.md) as JSON, `"[]"` when none.
    public var renderers: String

    /// Reads the properties from a `GetAll` reply; missing ones are empty, zero or false.
    init(_ values: [String: Value]) {
        scene = values[W.scene]?.string ?? ""
        title = values[W.title]?.string ?? ""
        version = values[W.version]?.uint64 ?? 0
        activeScreen = values[W.activeScreen]?.string ?? ""
        activeModel = ModelID(rawValue: Int(clamping: values[W.activeModel]?.uint64 ?? 0))
        routes = values[W.routes]?.string ?? "[]"
        selectedTab = values[W.selectedTab]?.string ?? ""
        canGoBack = values[W.canGoBack]?.bool ?? false
        canPop = values[W.canPop]?.bool ?? false
        canDismiss = values[W.canDismiss]?.bool ?? false
        pendingDeepLink = values[W.pendingDeepLink]?.string ?? ""
        activeTag = values[W.activeTag]?.string ?? ""
        pendingNavigation = values[W.pendingNavigation]?.string ?? ""
        settledVersion = values[W.settledVersion]?.uint64 ?? 0
        settledBy = values[W.settledBy]?.string ?? ""
        canGoForward = values[W.canGoForward]?.bool ?? false
        canUndo = values[W.canUndo]?.bool ?? false
        canRedo = values[W.canRedo]?.bool ?? false
        undoLabel = values[W.undoLabel]?.string ?? ""
        group = values[W.group]?.string ?? ""
        prepared = values[W.prepared]?.string ?? "[]"
        visibleModels = (values[W.visibleModels]?.arrayElements ?? []).compactMap(\.uint64).map { ModelID(rawValue: Int(clamping: $0)) }
        renderers = values[W.renderers]?.string ?? "[]"
    }
}

extension WindowProxy {
    /// Every property at once (`Properties.GetAll`).
    /// - Throws: ``NavSessionError/unknownObject(_:)`` for a window that is gone.
    public func properties() async throws(NavSessionError) -> WindowProperties {
        WindowProperties(try await client.allProperties(objectPath, ObjectPaths.windowInterface))
    }

    private func property(_ name: String) async throws(NavSessionError) -> Value {
        try await client.property(objectPath, ObjectPaths.windowInterface, name)
    }

    private func stringProperty(_ name: String) async throws(NavSessionError) -> String {
        let value = try await property(name)
        guard let text = value.string else { throw .unexpected("Get(\(name))", [value]) }
        return text
    }

    private func boolProperty(_ name: String) async throws(NavSessionError) -> Bool {
        let value = try await property(name)
        guard let flag = value.bool else { throw .unexpected("Get(\(name))", [value]) }
        return flag
    }

    private func uint64Property(_ name: String) async throws(NavSessionError) -> UInt64 {
        let value = try await property(name)
        guard let number = value.uint64 else { throw .unexpected("Get(\(name))", [value]) }
        return number
    }

    /// The window's scene (property `Scene`, constant).
    public var scene: String { get async throws(NavSessionError) { try await stringProperty(W.scene) } }

    /// The active alert's or dialog's headline, else the active model's title (property `Title`).
    public var title: String { get async throws(NavSessionError) { try await stringProperty(W.title) } }

    /// The window version (property `Version`).
    public var version: UInt64 { get async throws(NavSessionError) { try await uint64Property(W.version) } }

    /// The active model's screen (property `ActiveScreen`).
    public var activeScreen: String {
        get async throws(NavSessionError) { try await stringProperty(W.activeScreen) }
    }

    /// The active model (property `ActiveModel`).
    public var activeModel: ModelID {
        get async throws(NavSessionError) {
            ModelID(rawValue: Int(clamping: try await uint64Property(W.activeModel)))
        }
    }

    /// The route view as JSON (property `Routes`, the same text as ``getRoutes()``).
    public var routes: String { get async throws(NavSessionError) { try await stringProperty(W.routes) } }

    /// The selected tab of the active branch, `""` when none (property `SelectedTab`).
    public var selectedTab: String {
        get async throws(NavSessionError) { try await stringProperty(W.selectedTab) }
    }

    /// Whether `goBack()` would change something (property `CanGoBack`, decided by `GoBack`'s own rule).
    public var canGoBack: Bool { get async throws(NavSessionError) { try await boolProperty(W.canGoBack) } }
    /// Whether `goForward()` would re-enter a route (property `CanGoForward`: the forward list is not empty).
    public var canGoForward: Bool { get async throws(NavSessionError) { try await boolProperty(W.canGoForward) } }

    /// Whether `StackDropLast(1)` would pop (property `CanPop`).
    public var canPop: Bool { get async throws(NavSessionError) { try await boolProperty(W.canPop) } }

    /// Whether `Dismiss` would dismiss (property `CanDismiss`).
    public var canDismiss: Bool { get async throws(NavSessionError) { try await boolProperty(W.canDismiss) } }

    /// A deep link waiting for this window, `""` when none (property `PendingDeepLink`).
    public var pendingDeepLink: String {
        get async throws(NavSessionError) { try await stringProperty(W.pendingDeepLink) }
    }

    /// The tag of the nearest tagged model among the active model and its ancestors, `""` when none (`ActiveTag`:
    /// NavigationViewKit's tag of the current view).
    public var activeTag: String { get async throws(NavSessionError) { try await stringProperty(W.activeTag) } }

    /// The navigation waiting for an entry condition, `""` when none (property `PendingNavigation`, Docs/guards.md):
    /// `{"state":…,"url":…}` for a deep link, `{"commands":[…],"screen":…,"state":…}` for redirected commands.
    public var pendingNavigation: String {
        get async throws(NavSessionError) { try await stringProperty(W.pendingNavigation) }
    }

    /// The newest version a renderer reported it finished animating, 0 when none has (`SettledVersion`).
    public var settledVersion: UInt64 {
        get async throws(NavSessionError) { try await uint64Property(W.settledVersion) }
    }

    /// The unique bus name of the renderer that follows the window (the last to report settled), `""` when none
    /// does (`SettledBy`).
    public var settledBy: String { get async throws(NavSessionError) { try await stringProperty(W.settledBy) } }
}

/// Window1's names (NavSessionInterface defines them once).
private typealias W = NavSessionInterface.Window1
