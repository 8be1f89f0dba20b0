import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Window1 `Announcement` and `GetAnnouncement` on the bus: a push, a tab switch and an alert each say what happened
/// and where focus goes (the window's `ActiveModel`); gdbus reads the newest again; a change that moves no focus says
/// nothing.
@Suite struct AnnouncementBusTests {
    @Test func aPushATabSwitchAndAnAlertAreAnnouncedWithTheirFocus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.logIn(window)
            let said = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Announcement")
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let push = try await first(said, timeout: .seconds(10)) { _ in true }
            #expect(push.arguments[1] == .string("Detail"), "\(push.arguments)")
            #expect(push.arguments[2] == (try await fixture.windowProperty(window, "ActiveModel")))
            // A title alone moves no focus: the next announcement is the tab switch's.
            _ = try await fixture.window(window, "SetTitle", [.uint64(0), .string("Detail one")])
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            let tab = try await first(said, timeout: .seconds(10)) { _ in true }
            #expect(tab.arguments[1] == .string("Settings, tab 2 of 2"), "\(tab.arguments)")
            let alert = try await fixture.gdbus(
                window, "PresentAlert", ["'Delete?'", "'It cannot be undone.'", "['ok:OK:cancel']"])
            #expect(alert.status == 0, "\(alert)")
            let spoken = try await first(said, timeout: .seconds(10)) { _ in true }
            #expect(spoken.arguments[1] == .string("Alert: Delete? It cannot be undone."), "\(spoken.arguments)")
            #expect(spoken.arguments[2] == (try await fixture.windowProperty(window, "ActiveModel")))
            let again = try await fixture.gdbus(window, "GetAnnouncement", ["'fr-CA, fr;q=0.9'"])
            #expect(again.status == 0 && again.stdout.contains("'Alert: Delete? It cannot be undone.'"), "\(again)")
        }
    }
}
