import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Testing

/// Window1 `ReportWidthClass` and `VisibleModels` through gdbus: a list-detail scene shows the detail alone when
/// compact and the list beside it when expanded, announced with `PropertiesChanged`.
@Suite struct PanesBusTests {
    @Test func expandedShowsTheListAndTheDetailAndCompactTheDetailOnly() async throws {
        let manifest = Manifest.demoJSON.replacingOccurrences(
            of: #""savedStates": ["main"],"#, with: #""savedStates": ["main"], "panes": {"strategy": "list-detail"},"#)
        try await DaemonFixture.with(manifest: .json(manifest)) { fixture in
            let window = try await fixture.openWindow()
            _ = try await fixture.logIn(window)
            let list = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            #expect(try await fixture.windowProperty(window, "VisibleModels") == .array(.uint64, [.uint64(detail)]))
            let properties = try await fixture.signals(
                path: window, interface: try InterfaceName("org.freedesktop.DBus.Properties"), member: "PropertiesChanged")
            let wide = try await fixture.gdbus(window, "ReportWidthClass", ["expanded"])
            #expect(wide.status == 0, "\(wide)")
            let signal = try await first(properties, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments[1].keyedEntries["VisibleModels"] == .array(.uint64, [.uint64(list), .uint64(detail)]))
            #expect(try await fixture.windowProperty(window, "VisibleModels") == .array(.uint64, [.uint64(list), .uint64(detail)]))
            let narrow = try await fixture.gdbus(window, "ReportWidthClass", ["compact"])
            #expect(narrow.status == 0, "\(narrow)")
            #expect(try await fixture.windowProperty(window, "VisibleModels") == .array(.uint64, [.uint64(detail)]))
            let bad = try await fixture.gdbus(window, "ReportWidthClass", ["wide"])
            #expect(bad.stderr.contains("InvalidArgs"), "\(bad)")
        }
    }
}
