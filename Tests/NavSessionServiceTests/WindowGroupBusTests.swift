import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Session1 `GroupWindows` and Window1 `Group` through gdbus: two grouped windows close with one `DismissWindow` and
/// come back with one `UndoCloseWindow`, grouped again, also after `kill -9`.
@Suite struct WindowGroupBusTests {
    @Test func aGroupClosesTogetherAndComesBackTogether() async throws {
        try await DaemonFixture.with { fixture in
            let one = try await fixture.openWindow("waiting")
            let second = try await fixture.openWindow("waiting")
            let properties = try await fixture.signals(
                path: second, interface: try InterfaceName("org.freedesktop.DBus.Properties"), member: "PropertiesChanged")
            let grouped = try await fixture.gdbusSession("GroupWindows", ["work", "['\(one)', '\(second)']"])
            #expect(grouped.status == 0, "\(grouped)")
            let signal = try await first(properties, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments[1].keyedEntries["Group"] == .string("work"), "\(signal.arguments)")
            #expect(try await fixture.windowProperty(one, "Group") == .string("work"))
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await fixture.windowProperty(second, "Group") == .string("work"))
            let closed = try await fixture.gdbusSession("DismissWindow", ["'\(one)'"])
            #expect(closed.status == 0, "\(closed)")
            let open = try await fixture.session("ListWindows").first?.arrayElements ?? []
            #expect(open.isEmpty, "the group closed together: \(open)")
            let reopened = try await fixture.gdbusSession("UndoCloseWindow", ["''"])
            #expect(reopened.status == 0, "\(reopened)")
            let paths = (try await fixture.session("ListWindows").first?.arrayElements ?? []).compactMap { $0.objectPath?.rawValue }
            #expect(paths.count == 2, "\(paths)")
            for path in paths { #expect(try await fixture.windowProperty(path, "Group") == .string("work")) }
            let bad = try await fixture.gdbusSession("GroupWindows", ["'a/b'", "[]"])
            #expect(bad.status != 0 && bad.stderr.contains("InvalidArgs"), "\(bad)")
        }
    }
}
