import DBusKit

/// The validated D-Bus names and paths the service uses, built once.
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
    let windows: MemberName
    let version: MemberName
    let properties: Properties

    /// The Window1 property names, for `PropertiesChanged`.
    struct Properties: Sendable {
        let title, version, activeScreen, activeModel, routes, selectedTab: MemberName
        let canGoBack, canPop, canDismiss, pendingDeepLink: MemberName

        init() throws(ValidationError) {
            title = try MemberName("Title")
            version = try MemberName("Version")
            activeScreen = try MemberName("ActiveScreen")
            activeModel = try MemberName("ActiveModel")
            routes = try MemberName("Routes")
            selectedTab = try MemberName("SelectedTab")
            canGoBack = try MemberName("CanGoBack")
            canPop = try MemberName("CanPop")
            canDismiss = try MemberName("CanDismiss")
            pendingDeepLink = try MemberName("PendingDeepLink")
        }
    }

    init() throws(ValidationError) {
        sessionPath = try ObjectPath("/org/navsession/Session1")
        windowsPath = try ObjectPath(String(SessionService.windowPrefix.dropLast()))  // the prefix without its "/"
        sessionInterface = try InterfaceName("org.navsession.Session1")
        windowInterface = try InterfaceName("org.navsession.Window1")
        changed = try MemberName("Changed")
        message = try MemberName("Message")
        openExternalURL = try MemberName("OpenExternalURL")
        effect = try MemberName("Effect")
        windows = try MemberName("Windows")
        version = try MemberName("Version")
        properties = try Properties()
    }
}
