import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// The manifest's screen `style`/`transition` and top-level `transitions`, validated with the key at fault.
struct TransitionManifestTests {
    static func error(replacing old: String, with new: String) -> ManifestError? {
        let text = Manifest.demoJSON.replacingOccurrences(of: old, with: new)
        guard text != Manifest.demoJSON else { return nil }
        do {
            _ = try Manifest(json: text)
            return nil
        } catch {
            return error
        }
    }

    static let rule = #"{"from": ["settings"], "to": ["compose"], "transition": "fade"}"#

    @Test func theDemoDeclaresAScreenDefaultARuleAndAnEligibility() throws {
        let rules = try Manifest.demo().windowConfiguration.transitions
        #expect(rules.screens["compose"] == TransitionRules.ScreenDefaults(style: .sheet(detents: []), transition: "slide"))
        #expect(try rules.resolve(explicit: nil, from: "settings", to: "compose") == "fade")
        #expect(try rules.resolve(explicit: nil, from: "home", to: "compose") == "slide")
        #expect(throws: NavigationError.transitionNotEligible(transition: "flip", from: "settings", to: "compose")) {
            try rules.resolve(explicit: "flip", from: "settings", to: "compose")
        }
    }

    @Test func anUnknownScreenInARuleIsRefusedWithItsKey() {
        #expect(Self.error(replacing: Self.rule, with: Self.rule.replacingOccurrences(of: "[\"settings\"]", with: "[\"setings\"]"))
            == .unknownScreen(key: "transitions.rules[0].from[0]", screen: "setings"))
    }

    @Test func anyScreenIsAStar() {
        #expect(Self.error(replacing: Self.rule, with: Self.rule.replacingOccurrences(of: "[\"settings\"]", with: "[\"*\"]")) == nil)
    }

    @Test func anUnknownStyleIsRefusedWithItsKey() {
        let error = Self.error(replacing: #""style": "sheet", "transition""#, with: #""style": "popup", "transition""#)
        #expect(error == .unknownPresentationKind(key: "screens[12].style", kind: "popup"))
    }

    @Test func aDeclaredCustomKindIsAStyle() {
        #expect(Self.error(replacing: #""style": "sheet", "transition""#, with: #""style": "popover", "transition""#) == nil)
    }

    @Test func aMalformedTransitionIsRefusedWithItsKey() {
        #expect(Self.error(replacing: #""transition": "slide""#, with: #""transition": "sl ide""#)?.key == "screens[12].transition")
    }

    @Test func anUnknownKeyInTransitionsIsRefused() {
        #expect(Self.error(replacing: #""eligible": {"#, with: #""eligable": {"#)?.key == "transitions.eligable")
    }

    @Test func theBuiltInBrowserIsNotAScreenStyleUnlessDeclared() {
        #expect(Self.error(replacing: #""style": "sheet", "transition""#, with: #""style": "browser", "transition""#)?.key == "screens[12].style")
    }
}
