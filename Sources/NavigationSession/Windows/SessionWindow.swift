import NavigationCore
import NavigationRouting

/// One open window of a session: its number, scene, graph and ties.
///
/// Read the graph freely (`snapshot()`, `debugTree()`, `routes`, `activeModelID`, `version`); change it
/// only through ``Session`` so every change is persisted and its effects handled.
public final class SessionWindow {
    /// The window number (never reused).
    public let number: WindowNumber
    /// The scene it was opened from (Window1 `Scene`).
    public let scene: String
    /// The navigation graph. Do not mutate it directly.
    public let graph: NavigationWindow
    /// Its renderer's capabilities (the scene's, else the manifest's).
    public let capabilities: RendererCapabilities
    /// The unique bus name of the client whose exit closes the window, if any.
    public internal(set) var closeOnExitOwner: String?
    /// The window group it belongs to (Session1 `GroupWindows`; Window1 `Group`): its windows close, reopen and open
    /// together. `nil`: none.
    public internal(set) var group: String?
    /// Who may change it (Session1 `SetWindowPolicy`, the scene's `policy`); `nil`: any client.
    public internal(set) var policy: WindowPolicy?
    /// The model the last announcement focused (the active model when the window opened): a change that leaves focus
    /// where it is announces nothing (Docs/announcements.md).
    var announcedFocus: ModelID?
    /// The newest announcement (Window1 `GetAnnouncement` says it again in another locale); in memory only.
    var lastAnnouncement: Announcements.Announcement?
    /// The width its renderer reported (Window1 `ReportWidthClass`); in memory only, compact until reported.
    public internal(set) var widthClass: WidthClass = .compact
    /// Its registered renderers (Window1 `RegisterRenderer`), in registration order; in memory only.
    public internal(set) var renderers: [RegisteredRenderer] = []
    /// The number of the last renderer id given (`r<n>`).
    var nextRendererNumber = 0
    /// The navigation waiting for an entry condition (Docs/guards.md): a deep link waiting for the scene's
    /// `deepLinkState`, or commands refused by a screen's `requires`. One per window; a newer one replaces it.
    public internal(set) var pending: PendingNavigation?
    /// The waiting deep link's URL (``pending`` when it is a deep link), else `nil`.
    public var pendingDeepLink: String? {
        if case .deepLink(let url) = pending { url } else { nil }
    }
    /// The newest version a renderer reported it finished animating (Window1 `ReportSettled`), 0 when none has;
    /// kept in memory only (a restarted daemon starts at 0 and its renderers report again).
    public internal(set) var settledVersion = 0
    /// The unique bus name of the renderer that reported ``settledVersion``; `nil` when none has, or when it left
    /// the bus: then no renderer follows the window, as far as the daemon knows.
    public internal(set) var settledBy: String?
    /// Recency of the last open or change; the most recent window of a scene receives deep links.
    var lastActivity: UInt64
    /// Its history: its recent changes and the state before them (Session+History.swift).
    var history: WindowHistory

    init(
        number: WindowNumber, scene: String, graph: NavigationWindow, capabilities: RendererCapabilities,
        lastActivity: UInt64, history: WindowHistory? = nil
    ) {
        self.history = history ?? WindowHistory(base: graph.snapshot())
        self.number = number
        self.scene = scene
        self.graph = graph
        self.capabilities = capabilities
        self.lastActivity = lastActivity
    }

    /// The window version (Window1 `Version`).
    public var version: Int { graph.version }

    /// The screen name of the active model (Window1 `ActiveScreen`).
    public var activeScreen: String { graph.screen(of: graph.activeModelID) ?? "" }

    /// The selected tab of the first tab container on the active branch, `""` when there is none.
    public var selectedTab: String { graph.activeSelectedTab ?? "" }

    /// The state the first switched model on the active branch shows (its model's screen name).
    public var currentState: String? { graph.activeSwitchedModel.flatMap(graph.screen(of:)) }
}
