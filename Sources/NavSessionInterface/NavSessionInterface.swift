/// The names of the D-Bus contract (`dbus/org.navsession.Session1.xml`, `dbus/org.navsession.Window1.xml`),
/// defined once for the service that declares them and the clients that call them.
///
/// Plain strings and no dependencies, so every layer can use them: NavSessionService builds its interface
/// declarations from them, NavSessionClient and `navsessionctl` address the daemon with them, and the tests
/// compare them with the introspection files.
public enum NavSessionInterface {
    /// `/org/navsession/Session1`: the session object, also the ObjectManager of the windows.
    public static let sessionPath = "/org/navsession/Session1"
    /// Window `n` is at `windowPrefix + n` (`/org/navsession/Session1/window/3`).
    public static let windowPrefix = "/org/navsession/Session1/window/"

    /// `org.navsession.Session1`.
    public enum Session1 {
        /// The interface name.
        public static let name = "org.navsession.Session1"
        /// Properties.
        public static let windows = "Windows", scenes = "Scenes", version = "Version", applicationID = "ApplicationId"
        /// The screens the manifest declares: what a command may name (completion, editors, renderers).
        public static let screens = "Screens"
        /// The manifest's screen titles (`a{ss}`), for renderers that show a model other than the active one.
        public static let screenTitles = "ScreenTitles"
        /// Every declared guard → its provider's unique name (`""`: none); PropertiesChanged when that changes.
        public static let guards = "Guards"
        /// Why the daemon started, what the crash-loop guard set aside, the instance whose state it keeps.
        public static let restoreReason = "RestoreReason", restoreSetAside = "RestoreSetAside", instance = "Instance"
    }

    /// `org.navsession.Window1`, implemented by every window object.
    public enum Window1 {
        /// The interface name.
        public static let name = "org.navsession.Window1"

        /// Properties.
        public static let scene = "Scene", title = "Title", version = "Version", activeScreen = "ActiveScreen",
            activeModel = "ActiveModel", routes = "Routes", selectedTab = "SelectedTab", canGoBack = "CanGoBack",
            canPop = "CanPop", canDismiss = "CanDismiss", pendingDeepLink = "PendingDeepLink", activeTag = "ActiveTag",
            pendingNavigation = "PendingNavigation", protected = "Protected"
        /// Properties of settled versions (`ReportSettled`).
        public static let settledVersion = "SettledVersion", settledBy = "SettledBy"
        /// Back and forward: `GoForward` would re-enter a route.
        public static let canGoForward = "CanGoForward"
        public static let canUndo = "CanUndo"
        public static let canRedo = "CanRedo"
        public static let undoLabel = "UndoLabel"
        public static let group = "Group"
        public static let prepared = "Prepared"
        public static let visibleModels = "VisibleModels"
        public static let renderers = "Renderers"

        /// Signals.
        public static let changed = "Changed", message = "Message", openExternalURL = "OpenExternalURL",
            effect = "Effect", prevented = "Prevented", guardDecided = "GuardDecided",
            announcement = "Announcement", steps = "Steps"
        /// A renderer finished animating a version (`ReportSettled`).
        public static let settled = "Settled"
        /// A followed model changed (`FollowModel`; a signal addressed to the follower alone).
        public static let modelChanged = "ModelChanged"
    }

    /// `org.navsession.GuardProvider1` (dbus/org.navsession.GuardProvider1.xml): what a guard provider exports
    /// at ``path`` on its own connection; the daemon calls `Decide` on it.
    public enum GuardProvider1 {
        /// The interface name.
        public static let name = "org.navsession.GuardProvider1"
        /// The object path the provider exports it at.
        public static let path = "/org/navsession/GuardProvider1"
        /// The method.
        public static let decide = "Decide"
    }

    /// `org.freedesktop.Application` (the Desktop Entry specification's D-Bus activation interface).
    public enum Application {
        /// The interface name.
        public static let name = "org.freedesktop.Application"
    }
}
