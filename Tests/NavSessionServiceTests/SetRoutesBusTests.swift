import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Window1.SetRoutes through the command-line bus tools, on the demo manifest.
@Suite(.serialized) struct SetRoutesBusTests {
    /// `dbus-send … Window1.<member> string:<argument>`'s reply, trimmed (`--print-reply=literal`).
    static func dbusSend(_ fixture: DaemonFixture, _ window: String, _ member: String, _ arguments: [String] = [])
        async throws -> (status: Int32, stdout: String, stderr: String)
    {
        let result = try await fixture.run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", window,
                          "org.navsession.Window1.\(member)"] + arguments.map { "string:" + $0 })
        return (result.status, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), result.stderr)
    }

    /// The ids of the active branch's pushed and presented models, in route order (from GetState).
    static func routeModelIDs(_ fixture: DaemonFixture, _ window: String, screens: [String]) async throws -> [UInt64] {
        let models = try await fixture.models(window)
        return screens.compactMap { screen in
            (models.first { ($0["screen"] as? String) == screen }?["id"] as? NSNumber)?.uint64Value
        }
    }

    @Test func routesGivenBackChangeNothingAndANewArrayKeepsTheUnchangedPrefix() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let first = #"[{"style":"push","screen":"detail","params":{"id":"1"}},{"style":"sheet","screen":"editor","params":{"id":"1"},"withNavigation":true}]"#
            let set = try await Self.dbusSend(fixture, window, "SetRoutes", [first])
            #expect(set.status == 0, "\(set)")
            let version = try await fixture.version(window)
            #expect(set.stdout == "uint64 \(version)")

            // GetRoutes answers the array given; giving it back changes nothing.
            let read = try await Self.dbusSend(fixture, window, "GetRoutes")
            #expect(read.stdout == first, "\(read)")
            let detail = try await Self.routeModelIDs(fixture, window, screens: ["detail"])
            let again = try await Self.dbusSend(fixture, window, "SetRoutes", [read.stdout])
            #expect(again.stdout == "uint64 \(version)", "\(again)")
            #expect(try await fixture.version(window) == version)

            // A new array: the detail stays (same id), the editor sheet goes, a profile is pushed, in one change.
            let second = #"[{"style":"push","screen":"detail","params":{"id":"1"}},{"style":"push","screen":"profile","params":{"edit":"1"}}]"#
            let changed = try await Self.dbusSend(fixture, window, "SetRoutes", [second])
            #expect(changed.stdout == "uint64 \(version + 1)", "\(changed)")
            #expect(try await Self.dbusSend(fixture, window, "GetRoutes").stdout == second)
            #expect(try await Self.routeModelIDs(fixture, window, screens: ["detail"]) == detail)
            #expect(try await fixture.models(window).allSatisfy { ($0["screen"] as? String) != "editor" })
        }
    }

    @Test func aPushOnAPlainSheetIsNoStackNamingTheRoute() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let version = try await fixture.version(window)
            let routes = #"[{"style":"sheet","screen":"editor","params":{"id":"1"}},{"style":"push","screen":"about"}]"#
            let result = try await Self.dbusSend(fixture, window, "SetRoutes", [routes])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.NoStack"), "\(result)")
            #expect(result.stderr.contains("route 1:"), "\(result)")
            #expect(try await fixture.version(window) == version)
        }
    }

    @Test func anUndeclaredParamIsInvalidSpecNamingTheRoute() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let result = try await Self.dbusSend(
                fixture, window, "SetRoutes", [#"[{"style":"push","screen":"detail","params":{"id":"1","colour":"red"}}]"#])
            #expect(result.stderr.contains("org.navsession.Error.InvalidSpec"), "\(result)")
            #expect(result.stderr.contains("route 0:"), "\(result)")
        }
    }

    @Test func aMalformedArrayIsInvalidArgsNamingTheElement() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await Self.dbusSend(fixture, window, "SetRoutes", [#"[{"style":"push"}]"#])
            #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
            #expect(result.stderr.contains("routes_json: element 0: missing 'screen'"), "\(result)")
        }
    }

    @Test func anotherStacksBranchIsSetThroughApply() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let settings = try await fixture.modelID(window, where: "screen", is: "settings")
            let stack = try #require(
                (try await fixture.models(window).first { ($0["id"] as? NSNumber)?.uint64Value == settings }?["parent"] as? NSNumber)?
                    .uint64Value)
            let batch = #"[{"command":"setRoutes","routes":[{"style":"push","screen":"about"}],"stack":\#(stack)}]"#
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.Apply", batch, "{}"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Self.dbusSend(fixture, window, "GetRoutes").stdout == "[]", "the home tab stays as it was")
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            #expect(try await Self.dbusSend(fixture, window, "GetRoutes").stdout == #"[{"style":"push","screen":"about"}]"#)
        }
    }
}
