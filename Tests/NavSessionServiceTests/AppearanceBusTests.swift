import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Appearance and the live tab-bar rule through the bus, on the demo manifest: the demo's
/// `editor` declares no back button and no tab bar.
@Suite(.serialized) struct AppearanceBusTests {
    private static let window1 = "org.navsession.Window1"

    private static func pushEditor(_ fixture: DaemonFixture, _ window: String) async throws -> UInt64 {
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "StackAppend", [.string("editor"), .params(["id": "7"])])
        return try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
    }

    @Test func getStateReportsTheEditorsDeclaredAppearance() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            let model = try await TagAndParamsBusTests.model(fixture, window, id: editor)
            let appearance = try #require(model["appearance"] as? [String: Any])
            #expect(appearance["backButton"] as? Bool == false && appearance["tabBar"] as? Bool == false)
            #expect(appearance["navigationBar"] as? Bool == true && appearance["titleDisplayMode"] as? String == "inline")
            #expect(model["appearanceOverride"] == nil)
        }
    }

    @Test func setAppearanceWithDbusSendChangesTheEditorInPlaceWithAnAppearanceStep() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            let changes = try await fixture.signals(path: window, interface: try InterfaceName(Self.window1), member: "Changed")
            let result = try await fixture.dbusSend(
                window, "SetAppearance", ["string:", #"string:{"backButton":true,"navigationBar":false}"#, "boolean:false"])
            #expect(result.status == 0, "\(result)")
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            let steps = changed.arguments[6].string ?? ""
            #expect(steps == #"[{"kind":"appearance","model":\#(editor),"appearance":{"backButton":true,"navigationBar":false,"tabBar":false,"titleDisplayMode":"inline"}}]"#)
            #expect(changed.arguments[4].arrayElements?.isEmpty == true && changed.arguments[5].arrayElements?.isEmpty == true)
            let model = try await TagAndParamsBusTests.model(fixture, window, id: editor)
            #expect(model["appearanceOverride"] as? [String: Bool] == ["backButton": true, "navigationBar": false])
        }
    }

    @Test func setAppearanceByTagWithGdbusReachesTheTaggedModel() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let apply = try await fixture.gdbus(
                window, "Apply", [#"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"},"tag":"order"}]}]"#, "{}"])
            #expect(apply.status == 0, "\(apply)")
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let result = try await fixture.gdbus(
                window, "SetAppearance", ["tag:order", #"{"titleDisplayMode":"large"}"#, "false"])
            #expect(result.status == 0, "\(result)")
            let model = try await TagAndParamsBusTests.model(fixture, window, id: detail)
            #expect((model["appearance"] as? [String: Any])?["titleDisplayMode"] as? String == "large")
        }
    }

    @Test func replacingWithAnEmptyObjectGoesBackToTheDeclaredAppearance() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let editor = try await Self.pushEditor(fixture, window)
            _ = try await fixture.window(window, "SetAppearance", [.string(""), .string(#"{"tabBar":true}"#), .boolean(false)])
            _ = try await fixture.window(window, "SetAppearance", [.string("\(editor)"), .string("{}"), .boolean(true)])
            let model = try await TagAndParamsBusTests.model(fixture, window, id: editor)
            #expect(model["appearanceOverride"] == nil)
            #expect((model["appearance"] as? [String: Any])?["tabBar"] as? Bool == false)
        }
    }

    @Test func theSameAppearanceKeepsTheVersion() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await Self.pushEditor(fixture, window)
            let first = try await fixture.window(window, "SetAppearance", [.string(""), .string(#"{"tabBar":true}"#), .boolean(false)])
            let again = try await fixture.window(window, "SetAppearance", [.string(""), .string(#"{"tabBar":true}"#), .boolean(false)])
            #expect(first == again)
        }
    }

    @Test func anUnknownAppearanceKeyIsInvalidCommand() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            _ = try await Self.pushEditor(fixture, window)
            let result = try await fixture.dbusSend(
                window, "SetAppearance", ["string:", #"string:{"backButon":false}"#, "boolean:false"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.InvalidCommand") && result.stderr.contains("did you mean"), "\(result)")
        }
    }

    @Test func aWrongTypeIsInvalidCommand() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let error = await fixture.error {
                try await fixture.window(window, "SetAppearance", [.string(""), .string(#"{"tabBar":"no"}"#), .boolean(false)])
            }
            #expect(error?.name.rawValue == "org.navsession.Error.InvalidCommand", "\(String(describing: error))")
        }
    }

    @Test func anUnknownTagIsUnknownTag() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let error = await fixture.error {
                try await fixture.window(window, "SetAppearance", [.string("tag:nope"), .string(#"{"tabBar":false}"#), .boolean(false)])
            }
            #expect(error?.name.rawValue == "org.navsession.Error.UnknownTag", "\(String(describing: error))")
        }
    }

    @Test func aModelTextThatIsNeitherIdNorTagIsInvalidArgs() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let error = await fixture.error {
                try await fixture.window(window, "SetAppearance", [.string("inbox"), .string(#"{"tabBar":false}"#), .boolean(false)])
            }
            #expect(error?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs", "\(String(describing: error))")
        }
    }

    @Test func setTabBarRuleThroughApplyChangesTheLiveStackWithATabBarRuleStep() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let changes = try await fixture.signals(path: window, interface: try InterfaceName(Self.window1), member: "Changed")
            let result = try await fixture.gdbus(
                window, "Apply", [#"[{"command":"setTabBarRule","hiddenWhenNotRoot":true,"animated":false}]"#, "{}"])
            #expect(result.status == 0, "\(result)")
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            let steps = changed.arguments[6].string ?? ""
            #expect(steps.contains(#""kind":"tabBarRule""#) && steps.contains(#""hiddenWhenNotRoot":true,"animated":false"#), "\(steps)")
            #expect(changed.arguments[3] == .boolean(false))
            let stack = try #require(try await fixture.models(window).first { ($0["kind"] as? String) == "stack" && ($0["path"] as? [Any])?.count == 2 })
            #expect(stack["hidesTabBarWhenNotAtRoot"] as? Bool == true && stack["hidesTabBarAnimated"] as? Bool == false)
        }
    }
}
