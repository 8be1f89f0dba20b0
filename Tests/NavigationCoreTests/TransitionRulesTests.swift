import Foundation
import Testing

@testable import NavigationCore

/// Screen default styles and transitions, transition rules and eligibility, `show`, the browser.
struct TransitionRulesTests {
    static let rules = TransitionRules(
        rules: [TransitionRules.Rule(from: .init(["home"]), to: .init(["detail"]), transition: "zoom")],
        eligibility: ["flip": .init(from: .init(["home"]), to: .init(["compose"]))],
        screens: [
            "compose": .init(style: .sheet(detents: []), transition: "slide"),
            "detail": .init(transition: "push-fade"),
            "player": .init(style: .fullScreenCover),
        ])

    func window() throws -> NavigationWindow {
        var configuration = WindowConfiguration()
        configuration.transitions = Self.rules
        return try NavigationWindow(root: .stacked(home), configuration: configuration)
    }

    @Test func aRuleChoosesThePushTransitionWhenTheCommandNamesNone() throws {
        let window = try window()
        try window.execute(.stackAppend(detail))
        #expect(window.model(1)?.path?.last?.transition == "zoom")
    }

    @Test func theCommandsOwnTransitionWinsOverARule() throws {
        let window = try window()
        try window.execute(.stackAppend(detail, transition: "wipe"))
        #expect(window.model(1)?.path?.last?.transition == "wipe")
    }

    @Test func theTargetScreensDefaultAppliesWhenNoRuleMatches() throws {
        let window = try window()
        try window.execute(.stackAppend(detail, detail))
        // home → detail: the rule; detail → detail: no rule, detail's default.
        #expect(window.model(1)?.path?.map(\.transition) == [nil, "zoom", "push-fade"])
    }

    @Test func aPresentationGetsItsScreensDefaultTransition() throws {
        let window = try window()
        let event = try window.execute(.present(.sheet(.screen("compose"))))
        #expect(event.steps == [.present(presenter: 1, model: 3, style: .sheet(detents: []), nested: [], transition: "slide")])
    }

    @Test func anIneligibleTransitionIsRefusedNamingTheScreens() throws {
        let window = try window()
        try window.execute(.stackAppend(detail))
        expectRejected(window, .transitionNotEligible(transition: "flip", from: "detail", to: "compose")) {
            () throws(NavigationError) in try window.execute(.present(.sheet(.screen("compose")).with(transition: "flip")))
        }
    }

    @Test func anEligibleTransitionIsAccepted() throws {
        let window = try window()
        try window.execute(.present(.sheet(.screen("compose")).with(transition: "flip")))
        #expect(window.model(3)?.transition == "flip")
    }

    @Test func showPushesAScreenThatDeclaresNoStyle() throws {
        let window = try window()
        try window.execute(.show(screen: "detail", params: ["id": "1"]))
        #expect(screens(of: 1, in: window) == ["home", "detail"])
        #expect(window.model(1)?.path?.last?.transition == "zoom")
    }

    @Test func showPresentsAScreenDeclaredAsASheetOrCover() throws {
        let window = try window()
        try window.execute(.show(screen: "compose"))
        #expect(window.model(3)?.attachment == .presented(.sheet(detents: [])) && window.model(3)?.transition == "slide")
        try window.execute(.show(screen: "player", transition: "fade"))
        #expect(window.model(4)?.attachment == .presented(.fullScreenCover) && window.model(4)?.transition == "fade")
    }

    @Test func showDecodesAndEncodesItsKeys() throws {
        let json = #"{"command":"show","screen":"compose","params":{"to":"ann"},"transition":"fade"}"#
        let command = try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8))
        #expect(command == .show(screen: "compose", params: ["to": "ann"], transition: "fade"))
        #expect(try roundTrip(command) == command)
    }

    @Test func setRoutesWithoutTransitionsKeepsRoutesWhoseTransitionARuleChose() throws {
        let window = try window()
        try window.execute(.stackAppend(detail))
        let version = window.version
        try window.execute(.setRoutes([.push("detail")]))
        #expect(window.version == version)
    }

    @Test func theBrowserPresentsAValidURL() throws {
        let window = try makeWindow(.stacked(home))
        let json = #"{"kind":"browser","url":"https://example.org/docs?x=1","transition":"fade"}"#
        let presentation = try JSONDecoder().decode(PresentationSpec.self, from: Data(json.utf8))
        #expect(presentation == PresentationSpec.browser(url: "https://example.org/docs?x=1").with(transition: "fade"))
        try window.execute(.present(presentation))
        let browser = try #require(window.model(3))
        #expect(browser.attachment == .presented(.custom("browser")) && browser.params == ["url": "https://example.org/docs?x=1"])
        #expect(window.routes == [Route(style: .custom("browser"), screen: "browser", params: ["url": "https://example.org/docs?x=1"], transition: "fade")])
        let restored = try NavigationWindow(snapshot: try roundTrip(window.snapshot()))
        #expect(restored.model(3)?.screen == "browser")
    }

    @Test(arguments: ["ftp://example.org", "https://", "javascript:alert(1)", "https://exa mple.org", "https://a\u{7}b", "https://" + String(repeating: "a", count: 2048)])
    func aBrowserURLThatIsNotHttpIsRefusedWhenRead(url: String) {
        let json = #"{"kind":"browser","url":"# + String(decoding: (try? JSONEncoder().encode(url)) ?? Data(), as: UTF8.self) + "}"
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PresentationSpec.self, from: Data(json.utf8)) }
    }

    @Test func aBrowserURLThatIsNotHttpIsRefusedWhenRun() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .invalidBrowserURL("file:///etc/passwd", reason: "'file:///etc/passwd' is not an http or https URL")) {
            () throws(NavigationError) in try window.execute(.present(.browser(url: "file:///etc/passwd")))
        }
    }

    @Test func anotherModelPresentedAsBrowserNeedsTheKindDeclared() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .unknownPresentationKind("browser")) {
            () throws(NavigationError) in try window.execute(.present(.custom("browser", .screen("web"))))
        }
        let declaring = try makeWindow(.stacked(home), kinds: ["browser"])
        try declaring.execute(.present(.custom("browser", .screen("web"))))
        #expect(declaring.model(3)?.screen == "web")
    }
}
