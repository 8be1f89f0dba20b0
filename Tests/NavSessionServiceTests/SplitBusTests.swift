import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The split container through the bus, on the demo's `split` scene: split 1 with the columns
/// sidebar (stack 2, folders 3), messages (stack 4, messages 5) and detail (stack 6, message 7), messages focused.
@Suite(.serialized) struct SplitBusTests {
    static func split(_ fixture: DaemonFixture, _ window: String) async throws -> [String: Any] {
        try #require(try await fixture.models(window).first { ($0["id"] as? NSNumber) == 1 })
    }

    @Test func aPushFromTheMessagesColumnReplacesTheDetailColumnAndTheOldMessageFinishes() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let pushed = try await fixture.dbusSend(window, "StackAppend", ["string:message", "dict:string:string:id,42"])
            #expect(pushed.status == 0, "\(pushed)")
            let changed = try #require(try await take(1, of: changes).first)
            #expect(changed.arguments[5].arrayElements?.compactMap(\.uint64) == [7], "finished: \(changed.arguments)")
            let steps = try #require(try json(changed.arguments[6].string) as? [[String: Any]])
            #expect(steps.compactMap { $0["kind"] as? String } == ["replacePath", "selectChild"], "\(steps)")
            let detail = try #require(try await fixture.models(window).first { ($0["id"] as? NSNumber) == 6 })
            #expect((detail["path"] as? [[String: Any]])?.count == 1)
            let active = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            #expect(try await fixture.models(window).first { ($0["id"] as? NSNumber)?.uint64Value == active }?["params"]
                as? [String: String] == ["id": "42"])
        }
    }

    @Test func getTreeNamesTheSplitsColumnsByTheContainersKind() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let tree = try await fixture.gdbus(window, "GetTree", [])
            #expect(tree.status == 0, "\(tree)")
            #expect(tree.stdout.contains("custom:split"), "\(tree)")
            #expect(tree.stdout.contains("(split[0])"), "\(tree)")
            #expect(tree.stdout.contains("(split[1]*)"), "\(tree)")
            #expect(!tree.stdout.contains("custom["), "\(tree)")
        }
    }

    @Test func setColumnVisibilityWithDbusSendIsInTheState() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await fixture.dbusSend(window, "SetColumnVisibility", ["uint64:0", "string:detailOnly"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Self.split(fixture, window)["columnVisibility"] as? String == "detailOnly")
            let wrong = try await fixture.dbusSend(window, "SetColumnVisibility", ["uint64:0", "string:twoColumns"])
            #expect(wrong.status != 0)
            #expect(wrong.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrong)")
        }
    }

    @Test func collapsedWithGdbusTheColumnsAreOneStackForRoutesAndGoBack() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            _ = try await fixture.dbusSend(window, "SelectChild", ["uint64:0", "uint32:2"])
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(false))
            let collapsed = try await fixture.gdbus(window, "ReportCollapsed", ["1", "true"])
            #expect(collapsed.status == 0, "\(collapsed)")
            #expect(try await Self.split(fixture, window)["collapsed"] as? Bool == true)
            let routes = try await fixture.gdbus(window, "GetRoutes", [])
            #expect(routes.stdout.contains(#""screen":"messages""#) && routes.stdout.contains(#""screen":"message""#), "\(routes)")
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(true))
            let back = try await fixture.gdbus(window, "GoBack", [])
            #expect(back.status == 0, "\(back)")
            #expect(try await fixture.windowProperty(window, "ActiveModel") == .uint64(5))
        }
    }

    @Test func expandedWithDbusSendTheSplitShowsColumnsAgain() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            _ = try await fixture.dbusSend(window, "ReportCollapsed", ["uint64:1", "boolean:true"])
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let expanded = try await fixture.dbusSend(window, "ReportCollapsed", ["uint64:1", "boolean:false"])
            #expect(expanded.status == 0, "\(expanded)")
            let changed = try #require(try await take(1, of: changes).first)
            #expect(changed.arguments[6].string == #"[{"kind":"expand","container":1}]"#)
            #expect(try await Self.split(fixture, window)["collapsed"] as? Bool == false)
        }
    }

    @Test func reportCollapsedOfAModelThatIsNoSplitIsWrongKind() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await fixture.gdbus(window, "ReportCollapsed", ["2", "true"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.WrongKind"), "\(result)")
        }
    }
}
