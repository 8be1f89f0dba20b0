import DBusKit
import NavSessionInterface
import Glibc

/// The fixed names of the session contract (`dbus/org.navsession.Session1.xml`, `org.navsession.Window1.xml`).
enum SessionNames {
    /// The session object, also the ObjectManager of the windows.
    static let sessionPath = NavSessionInterface.sessionPath
    /// Windows live at `<windowPrefix><n>`.
    static let windowPrefix = NavSessionInterface.windowPrefix
    /// The session interface.
    static let session = NavSessionInterface.Session1.name
    /// The window interface.
    static let window = NavSessionInterface.Window1.name
    /// The application id the demo daemon owns.
    static let defaultDestination = "org.navsession.Demo"
    /// `NAVSESSION_DEST` when set and not empty: the default of `--dest`.
    ///
    /// Read with `getenv`: `ProcessInfo.environment` copies the whole environment into a dictionary, and
    /// every command value the argument parser makes reads this (the default of `--dest`) (≈ 10 % of a call's instructions).
    static var environmentDestination: String? {
        guard let value = getenv("NAVSESSION_DEST"), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    /// The window number of a window path (`…/window/3` → `"3"`), or the whole path for other paths.
    static func shortName(of path: String) -> String {
        path.hasPrefix(windowPrefix) ? String(path.dropFirst(windowPrefix.count)) : path
    }
}
