import DBusKit
import NavSessionInterface

/// The validated D-Bus names and paths the service uses, built once from ``NavSessionInterface``.
struct ServiceNames: Sendable {
    let sessionPath: ObjectPath
    /// `/org/navsession/Session1/window`: window `n` is at `windowsPath/n`.
    let windowsPath: ObjectPath
    let sessionInterface: InterfaceName
    let windowInterface: InterfaceName
    let changed: MemberName
    let message: MemberName
    let openExternalURL: MemberName
    let effect: MemberName
    let prevented: MemberName
    let guardDecided: MemberName
    let announcement: MemberName
    let steps: MemberName
    let settled: MemberName
    let modelChanged: MemberName
    /// Session1's `Windows`, `Version` and `Guards`; `Scenes`, `Screens`, `ScreenTitles` (a manifest reload).
    let windows: MemberName
    let version: MemberName
    let guards: MemberName
    let scenes: MemberName
    let screens: MemberName
    let screenTitles: MemberName

    init() throws(ValidationError) {
        sessionPath = try ObjectPath(NavSessionInterface.sessionPath)
        windowsPath = try ObjectPath(String(NavSessionInterface.windowPrefix.dropLast()))  // without its "/"
        sessionInterface = try InterfaceName(NavSessionInterface.Session1.name)
        windowInterface = try InterfaceName(NavSessionInterface.Window1.name)
        changed = try MemberName(NavSessionInterface.Window1.changed)
        message = try MemberName(NavSessionInterface.Window1.message)
        openExternalURL = try MemberName(NavSessionInterface.Window1.openExternalURL)
        effect = try MemberName(NavSessionInterface.Window1.effect)
        prevented = try MemberName(NavSessionInterface.Window1.prevented)
        guardDecided = try MemberName(NavSessionInterface.Window1.guardDecided)
        announcement = try MemberName(NavSessionInterface.Window1.announcement)
        steps = try MemberName(NavSessionInterface.Window1.steps)
        settled = try MemberName(NavSessionInterface.Window1.settled)
        modelChanged = try MemberName(NavSessionInterface.Window1.modelChanged)
        windows = try MemberName(NavSessionInterface.Session1.windows)
        version = try MemberName(NavSessionInterface.Session1.version)
        guards = try MemberName(NavSessionInterface.Session1.guards)
        scenes = try MemberName(NavSessionInterface.Session1.scenes)
        screens = try MemberName(NavSessionInterface.Session1.screens)
        screenTitles = try MemberName(NavSessionInterface.Session1.screenTitles)
    }
}
