import DBusKit
import FoundationEssentials

/// The fixed names of the session contract (`dbus/org.navsession.Session1.xml`, `org.navsession.Window1.xml`).
enum SessionNames {
    /// The session object, also the ObjectManager of the windows.
    static let sessionPath = "/org/navsession/Session1"
    /// Windows live at `<windowPrefix><n>`.
    static let windowPrefix = "/org/navsession/Session1/window/"
    /// The session interface.
    static let session = "org.navsession.Session1"
    /// The window interface.
    static let window = "org.navsession.Window1"
    /// The application id the demo daemon owns.
    static let defaultDestination = "org.navsession.Demo"
    /// `NAVSESSION_DEST` when set and not empty: the default of `--dest`.
    static var environmentDestination: String? {
        ProcessInfo.processInfo.environment["NAVSESSION_DEST"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The window number of a window path (`…/window/3` → `"3"`), or the whole path for other paths.
    static func shortName(of path: String) -> String {
        path.hasPrefix(windowPrefix) ? String(path.dropFirst(windowPrefix.count)) : path
    }
}
