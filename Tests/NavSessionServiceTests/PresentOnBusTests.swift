import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `PresentOn`, `present` with `on`/`replace` and presentation transitions through the bus, on the demo.
@Suite(.serialized) struct PresentOnBusTests {
    /// A logged-in demo window with `about` presented (by the nearest presenter, the `main` tab container); its id.
    static func windowPresentingAbout(_ fixture: DaemonFixture) async throws -> (window: String, tabs: UInt64, about: UInt64) {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
        let tabs = try await fixture.modelID(window, where: "kind", is: "tabs")
        let about = try await fixture.modelID(window, where: "screen", is: "about")
        return (window, tabs, about)
    }

    @Test func presentOnWithDbusSendReplacesWhatTheModelPresentsInOneChange() async throws {
        try await DaemonFixture.with { fixture in
            let (window, tabs, about) = try await Self.windowPresentingAbout(fixture)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let before = try await fixture.version(window)
            let result = try await fixture.dbusSend(
                window, "PresentOn",
                ["string:\(tabs)", "string:sheet", "string:profile", "dict:string:string:edit,1", "string:slide", "boolean:true"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("uint64 \(before + 1)"), "\(result)")
            let change = try await first(changes, timeout: .seconds(10)) { $0.arguments[0] == .uint64(before + 1) }
            #expect(change.arguments[5] == .array(.uint64, [.uint64(about)]), "the replaced sheet finished")
            let steps = try #require(change.arguments[6].string)
            #expect(steps.hasPrefix(#"[{"kind":"dismiss","presenter":\#(tabs),"model":\#(about)}"#), "\(steps)")
            #expect(steps.contains(#"{"kind":"present","presenter":\#(tabs),"#) && steps.contains(#""transition":"slide""#), "\(steps)")
            let profile = try #require(try await fixture.models(window).first { ($0["screen"] as? String) == "profile" })
            #expect(profile["transition"] as? String == "slide")
            #expect((profile["parent"] as? NSNumber)?.uint64Value == tabs)
        }
    }

    @Test func presentOnWithGdbusWithoutReplaceIsRefusedAsAlreadyPresenting() async throws {
        try await DaemonFixture.with { fixture in
            let (window, tabs, about) = try await Self.windowPresentingAbout(fixture)
            let before = try await fixture.version(window)
            let result = try await fixture.gdbus(window, "PresentOn", ["\(tabs)", "sheet", "profile", "{}", "", "false"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.AlreadyPresenting"), "\(result)")
            #expect(result.stderr.contains("model #\(tabs) already presents model #\(about) ('about')"), "\(result)")
            #expect(try await fixture.version(window) == before)
        }
    }

    /// SwiftUI's `.sheet` on a destination: the pushed screen presents (hosted by its nearest presenter on its
    /// behalf), and the sheet goes when the screen is popped.
    @Test func aPushedScreenPresentsWithGdbusAndItsSheetGoesWhenItIsPopped() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try await fixture.modelID(window, where: "screen", is: "detail")
            let result = try await fixture.gdbus(window, "PresentOn", ["\(detail)", "sheet", "about", "{}", "", "false"])
            #expect(result.status == 0, "\(result)")
            #expect(try await fixture.routeSummaries(window) == ["push detail", "sheet about"])
            let about = try await fixture.models(window).first { $0["screen"] as? String == "about" }
            #expect(about?["resultTo"] as? Int == Int(detail))
            _ = try await fixture.window(window, "PopAt", [.uint64(detail), .uint32(1)])
            #expect(try await fixture.routeSummaries(window) == [])
        }
    }

    @Test func applyPresentsOnATaggedModelWithATransition() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let batch = #"""
                [{"command":"present","presentation":{"kind":"sheet","model":{"screen":"about","tag":"about"}}},
                 {"command":"present","on":"tag:about","presentation":{"kind":"fullScreenCover","model":{"screen":"profile"},"transition":"zoom"}}]
                """#
            let result = try await fixture.gdbus(window, "Apply", [batch, "{}"])
            #expect(result.status == 0, "\(result)")
            let about = try await fixture.modelID(window, where: "screen", is: "about")
            let profile = try #require(try await fixture.models(window).first { ($0["screen"] as? String) == "profile" })
            #expect((profile["parent"] as? NSNumber)?.uint64Value == about)
            #expect(profile["transition"] as? String == "zoom")
            let routes = try #require(try await fixture.window(window, "GetRoutes").first?.string)
            #expect(routes.contains(#""transition":"zoom""#), "\(routes)")
        }
    }

    @Test func aTransitionThatIsNotAName() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let batch = #"[{"command":"present","presentation":{"kind":"sheet","model":{"screen":"about"},"transition":"slide in"}}]"#
            let result = try await fixture.gdbus(window, "Apply", [batch, "{}"])
            #expect(result.stderr.contains("org.navsession.Error.InvalidBatch") && result.stderr.contains("transition"), "\(result)")
        }
    }
}

/// A presentation's transition and a replacing `present` survive a SIGKILL (journal) and a restart.
@Suite struct PresentationTransitionRestoreTests {
    @Test func aPresentationsTransitionComesBackAfterASigkill() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
            let tabs = try await fixture.modelID(window, where: "kind", is: "tabs")
            let batch = #"[{"command":"present","on":\#(tabs),"replace":true,"presentation":{"kind":"fullScreenCover","model":{"screen":"profile"},"transition":"zoom"}}]"#
            _ = try await fixture.window(window, "Apply", [.string(batch), .noParams])
            let before = try await fixture.models(window).first { ($0["screen"] as? String) == "profile" }
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            try await fixture.relaunch()
            let models = try await fixture.models(window)
            #expect(!models.contains { ($0["screen"] as? String) == "about" })
            let profile = try #require(models.first { ($0["screen"] as? String) == "profile" })
            #expect(profile["transition"] as? String == "zoom")
            #expect((profile["id"] as? NSNumber) == (before?["id"] as? NSNumber))
            let routes = try #require(try await fixture.window(window, "GetRoutes").first?.string)
            #expect(routes == #"[{"style":"cover","screen":"profile","withNavigation":false,"transition":"zoom"}]"#, "\(routes)")
        }
    }
}
