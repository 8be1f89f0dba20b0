import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `Show`, screen defaults, the demo's transition rule and eligibility, and the built-in browser
/// through the bus, on the demo manifest.
@Suite(.serialized) struct TransitionBusTests {
    @Test func showWithDbusSendPresentsComposeAsASheetWithItsDefaultTransition() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let before = try await fixture.version(window)
            let result = try await fixture.dbusSend(window, "Show", ["string:compose", "dict:string:string:to,ann"])
            #expect(result.status == 0, "\(result)")
            let change = try await first(changes, timeout: .seconds(10)) { $0.arguments[0] == .uint64(before + 1) }
            let steps = try #require(change.arguments[6].string)
            #expect(steps.contains(#""style":"sheet","transition":"slide""#), "\(steps)")
            let routes = try #require(try await fixture.window(window, "GetRoutes").first?.string)
            #expect(routes == #"[{"style":"sheet","screen":"compose","params":{"to":"ann"},"withNavigation":false,"transition":"slide"}]"#)
        }
    }

    @Test func theDemosRuleChoosesFadeFromSettings() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            let result = try await fixture.gdbus(window, "Show", ["compose", "{}"])
            #expect(result.status == 0, "\(result)")
            let compose = try #require(try await fixture.models(window).first { ($0["screen"] as? String) == "compose" })
            #expect(compose["transition"] as? String == "fade")
        }
    }

    @Test func aTransitionOutsideItsEligibleScreensIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            let result = try await fixture.gdbus(
                window, "Apply", [#"[{"command":"show","screen":"compose","transition":"flip"}]"#, "{}"])
            #expect(result.stderr.contains("org.navsession.Error.TransitionNotEligible"), "\(result)")
            #expect(result.stderr.contains("'flip' is not eligible from 'settings' to 'compose'"), "\(result)")
        }
    }

    @Test func theBuiltInBrowserShowsAnHttpsURL() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let result = try await fixture.gdbus(window, "Present", ["browser", "https://example.org/help", "{}"])
            #expect(result.status == 0, "\(result)")
            let routes = try #require(try await fixture.window(window, "GetRoutes").first?.string)
            #expect(routes == #"[{"style":"browser","screen":"browser","params":{"url":"https://example.org/help"},"withNavigation":false}]"#)
        }
    }

    @Test func aBrowserURLThatIsNotHttpIsRefusedBeforeAnyWork() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let before = try await fixture.version(window)
            let viaMethod = try await fixture.gdbus(window, "Present", ["browser", "file:///etc/passwd", "{}"])
            #expect(viaMethod.stderr.contains("org.navsession.Error.InvalidURL"), "\(viaMethod)")
            let viaBatch = try await fixture.gdbus(
                window, "Apply", [#"[{"command":"present","presentation":{"kind":"browser","url":"ftp://x"}}]"#, "{}"])
            #expect(viaBatch.stderr.contains("org.navsession.Error.InvalidBatch") && viaBatch.stderr.contains("http or https"), "\(viaBatch)")
            #expect(try await fixture.version(window) == before)
        }
    }
}
