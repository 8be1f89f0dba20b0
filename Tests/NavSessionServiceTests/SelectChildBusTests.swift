import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Selectable custom containers through the bus, on the demo's `split` scene: a custom
/// container of kind `split` (1) with the stacks sidebar (2, folders 3), messages (4, messages 5) and detail
/// (6, message 7); messages is selected.
@Suite(.serialized) struct SelectChildBusTests {
    static func tool(_ fixture: DaemonFixture, _ tool: String, _ window: String, _ member: String, _ arguments: [String])
        async throws -> ToolResult
    {
        switch tool {
        case "gdbus":
            try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.\(member)"] + arguments)
        default:
            try await fixture.run(
                "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", window,
                              "org.navsession.Window1.\(member)"] + arguments)
        }
    }

    static func active(_ fixture: DaemonFixture, _ window: String) async throws -> UInt64? {
        try await fixture.windowProperty(window, "ActiveModel").uint64
    }

    @Test func theSplitScenesSelectedColumnIsTheActiveBranch() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            #expect(try await Self.active(fixture, window) == 5)
            let container = try #require(try await fixture.models(window).first { ($0["id"] as? NSNumber) == 1 })
            #expect(container["customKind"] as? String == "split")
            #expect((container["selected"] as? NSNumber)?.intValue == 1)
        }
    }

    @Test func selectChildWithDbusSendMovesTheActiveModelAndPushesGoToThatColumn() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let selected = try await Self.tool(fixture, "dbus-send", window, "SelectChild", ["uint64:0", "uint32:2"])
            #expect(selected.status == 0, "\(selected)")
            let changed = try #require(try await take(1, of: changes).first)
            let steps = try #require(try json(changed.arguments[6].string) as? [[String: Any]])
            #expect(steps.first?["kind"] as? String == "selectChild", "\(steps)")
            #expect((steps.first?["child"] as? NSNumber)?.intValue == 6, "\(steps)")
            #expect((steps.first?["previous"] as? NSNumber)?.intValue == 4, "\(steps)")
            #expect(try await Self.active(fixture, window) == 7)
            let pushed = try await Self.tool(fixture, "dbus-send", window, "StackAppend", ["string:message", "dict:string:string:id,42"])
            #expect(pushed.status == 0, "\(pushed)")
            let detail = try #require(try await fixture.models(window).first { ($0["id"] as? NSNumber) == 6 })
            #expect((detail["path"] as? [Any])?.count == 2)
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(true))
        }
    }

    @Test func selectChildThroughApplyWithGdbusTakesATag() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await Self.tool(
                fixture, "gdbus", window, "Apply", [#"[{"command":"selectChild","container":1,"child":"tag:sidebar"}]"#, "{}"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Self.active(fixture, window) == 3)
            #expect(try await fixture.windowProperty(window, "ActiveTag") == .string("sidebar"))
        }
    }

    @Test func reportChildSelectedWithGdbusSelectsTheColumnTheUserPicked() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await Self.tool(fixture, "gdbus", window, "ReportChildSelected", ["1", "2"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Self.active(fixture, window) == 3)
        }
    }

    @Test func aReportOfAModelThatIsNotAChildIsUnknownChild() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await Self.tool(fixture, "gdbus", window, "ReportChildSelected", ["1", "3"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.UnknownChild"), "\(result)")
        }
    }

    @Test func anIndexOutOfRangeIsUnknownChild() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await Self.tool(fixture, "dbus-send", window, "SelectChild", ["uint64:1", "uint32:3"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.UnknownChild"), "\(result)")
            #expect(try await Self.active(fixture, window) == 5)
        }
    }

    @Test func withoutACustomContainerSelectChildIsNoContainer() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await Self.tool(fixture, "dbus-send", window, "SelectChild", ["uint64:0", "uint32:0"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.NoContainer"), "\(result)")
        }
    }

    @Test func aContainerThatIsNotCustomIsWrongKind() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("split")
            let result = try await Self.tool(fixture, "dbus-send", window, "SelectChild", ["uint64:2", "uint32:0"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.WrongKind"), "\(result)")
        }
    }
}
