import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Tags, `"tag:…"` references, SetParams/SetTitle, singleTop and BringToFront through the bus, on the demo manifest.
@Suite(.serialized) struct TagAndParamsBusTests {
    static func model(_ fixture: DaemonFixture, _ window: String, id: UInt64) async throws -> [String: Any] {
        try #require(try await fixture.models(window).first { ($0["id"] as? NSNumber)?.uint64Value == id })
    }

    @Test func setParamsWithDbusSendUpdatesTheActiveModelInPlace() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let before = try await fixture.version(window)
            let result = try await fixture.dbusSend(window, "SetParams", ["uint64:0", "dict:string:string:edit,1", "boolean:false"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("uint64 \(before + 1)"), "\(result)")
            #expect(try await fixture.windowProperty(window, "ActiveModel") == .uint64(detail))
            #expect(try await Self.model(fixture, window, id: detail)["params"] as? [String: String] == ["id": "1", "edit": "1"])
        }
    }

    @Test func setParamsRefusesAParameterTheScreenDoesNotTake() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let result = try await fixture.dbusSend(window, "SetParams", ["uint64:0", "dict:string:string:idd,2", "boolean:false"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.InvalidSpec") && result.stderr.contains("did you mean 'id'"), "\(result)")
        }
    }

    @Test func setTitleWithGdbusChangesTheTitleProperty() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let result = try await fixture.gdbus(window, "SetTitle", ["0", "Order 42"])
            #expect(result.status == 0, "\(result)")
            #expect(try await fixture.windowProperty(window, "Title") == .string("Order 42"))
        }
    }

    @Test func aTaggedSpecIsFoundWithModelForTagAndShowsInTreeAndActiveTag() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let apply = try await fixture.gdbus(
                window, "Apply",
                [#"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"},"tag":"order"}]}]"#, "{}"])
            #expect(apply.status == 0, "\(apply)")
            let active = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let found = try await fixture.gdbus(window, "ModelForTag", ["order"])
            #expect(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(uint64 \(active),)", "\(found)")
            #expect(try await fixture.windowProperty(window, "ActiveTag") == .string("order"))
            let tree = try #require(try await fixture.window(window, "GetTree").first?.string)
            #expect(tree.contains(#"(path[1]) tag:"order" {"id":"1"}"#), "\(tree)")
            #expect(try await Self.model(fixture, window, id: active)["tag"] as? String == "order")
        }
    }

    @Test func aDuplicateTagIsRefusedNamingTheModelThatCarriesIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let batch = #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"},"tag":"order"}]}]"#
            _ = try await fixture.gdbus(window, "Apply", [batch, "{}"])
            let active = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let again = try await fixture.gdbus(window, "Apply", [batch, "{}"])
            #expect(again.stderr.contains("org.navsession.Error.DuplicateTag"), "\(again)")
            #expect(again.stderr.contains("model #\(active) already carries tag 'order'"), "\(again)")
        }
    }

    @Test func anUnknownTagIsNamedInTheError() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.gdbus(window, "ModelForTag", ["nope"])
            #expect(result.stderr.contains("org.navsession.Error.UnknownTag") && result.stderr.contains("'nope'"), "\(result)")
            let batch = try await fixture.gdbus(window, "Apply", [#"[{"command":"dismiss","from":"tag:nope"}]"#, "{}"])
            #expect(batch.stderr.contains("org.navsession.Error.UnknownTag"), "\(batch)")
        }
    }

    @Test func aFromTagRunsTheEntryFromTheTaggedStack() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let batch = #"""
                [{"command":"present","presentation":{"kind":"sheet","model":{"kind":"stack","tag":"editorStack","path":[{"screen":"editor","params":{"id":"1"}}]}}},
                 {"command":"stackAppend","from":"tag:editorStack","models":[{"screen":"detail","params":{"id":"2"}}]}]
                """#
            let result = try await fixture.gdbus(window, "Apply", [batch, "{}"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Window1MethodTests.routeScreens(fixture, window) == ["editor", "detail"])
        }
    }

    @Test func singleTopUpdatesTheTopInsteadOfPushingACopy() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let result = try await fixture.gdbus(
                window, "Apply",
                [#"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"2"}}],"singleTop":true}]"#, "{}"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Window1MethodTests.routeScreens(fixture, window) == ["detail"])
            #expect(try await fixture.windowProperty(window, "ActiveModel") == .uint64(detail))
            #expect(try await Self.model(fixture, window, id: detail)["params"] as? [String: String] == ["id": "2"])
        }
    }

    @Test func bringToFrontWithDbusSendMovesTheElementKeepingItsId() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            _ = try await fixture.window(window, "StackAppend", [.string("profile"), .noParams])
            let result = try await fixture.dbusSend(window, "BringToFront", ["string:detail", "string:"])
            #expect(result.status == 0, "\(result)")
            #expect(try await Window1MethodTests.routeScreens(fixture, window) == ["profile", "detail"])
            #expect(try await fixture.windowProperty(window, "ActiveModel") == .uint64(detail))
        }
    }

    @Test func bringToFrontOfAnAbsentScreenNamesIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let absent = try await fixture.dbusSend(window, "BringToFront", ["string:about", "string:"])
            #expect(absent.stderr.contains("org.navsession.Error.ScreenNotInStack") && absent.stderr.contains("'about'"), "\(absent)")
            let neither = try await fixture.dbusSend(window, "BringToFront", ["string:", "string:"])
            #expect(neither.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(neither)")
        }
    }

    @Test func tagsAndInPlaceParamsSurviveARestart() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let batch = #"""
                [{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"},"tag":"order"}]},
                 {"command":"setParams","tag":"order","params":{"id":"2"}}]
                """#
            #expect(try await fixture.gdbus(window, "Apply", [batch, "{}"]).status == 0)
            let id = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            try await fixture.relaunch()
            let found = try await fixture.gdbus(window, "ModelForTag", ["order"])
            #expect(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(uint64 \(id),)", "\(found)")
            #expect(try await Self.model(fixture, window, id: id)["params"] as? [String: String] == ["id": "2"])
        }
    }
}
