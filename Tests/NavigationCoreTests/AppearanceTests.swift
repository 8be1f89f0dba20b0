import Foundation
import Testing

@testable import NavigationCore

/// Appearance: declared per screen, overridden per model, changed in place; the live tab-bar rule.
struct AppearanceTests {
    private static let receiptDeclared = Appearance(backButton: false, tabBar: false)

    private func window(_ root: ModelSpec, declared: [String: Appearance] = ["receipt": receiptDeclared]) throws -> NavigationWindow {
        try NavigationWindow(root: root, configuration: WindowConfiguration(appearances: declared))
    }

    @Test func aModelWithoutDeclarationOrOverrideReportsNoAppearance() throws {
        let window = try window(.stacked(home))
        #expect(window.model(2)?.appearance == nil)
    }

    @Test func aScreensDeclaredAppearanceIsResolvedInTheState() throws {
        let window = try window(.stack([home, .screen("receipt")]))
        #expect(window.model(3)?.appearance
            == Appearance(backButton: false, navigationBar: true, tabBar: false, titleDisplayMode: .automatic))
        #expect(window.model(3)?.appearanceOverride == nil)
    }

    @Test func aSpecsOverrideIsLaidOverTheDeclaration() throws {
        let window = try window(.stack([home, .screen("receipt").appearing(Appearance(tabBar: true, titleDisplayMode: .large))]))
        #expect(window.model(3)?.appearance
            == Appearance(backButton: false, navigationBar: true, tabBar: true, titleDisplayMode: .large))
    }

    @Test func setAppearanceMergesIntoTheOverrideWithOneAppearanceStep() throws {
        let window = try window(.stack([home, .screen("detail")]))
        try window.execute(.setAppearance(Appearance(navigationBar: false)))
        let event = try window.execute(.setAppearance(Appearance(titleDisplayMode: .inline)))
        let resolved = Appearance(backButton: true, navigationBar: false, tabBar: true, titleDisplayMode: .inline)
        #expect(window.model(3)?.appearanceOverride == Appearance(navigationBar: false, titleDisplayMode: .inline))
        #expect(event.steps == [.appearance(model: 3, appearance: resolved)])
        #expect(NavigationStep.json(event.steps)
            == #"[{"kind":"appearance","model":3,"appearance":{"backButton":true,"navigationBar":false,"tabBar":true,"titleDisplayMode":"inline"}}]"#)
    }

    @Test func setAppearanceChangesNoLifecycle() throws {
        let window = try window(.stack([home, .screen("detail")]))
        let event = try window.execute(.setAppearance(Appearance(backButton: false)))
        #expect(event.started.isEmpty && event.finished.isEmpty && event.messages.isEmpty)
        #expect(window.activeModelID == 3 && window.version == 1 && event.modified == [3])
    }

    @Test func replacingWithAnEmptyAppearanceClearsTheOverrideBackToTheDeclaration() throws {
        let window = try window(.stack([home, .screen("receipt").appearing(Appearance(backButton: true))]))
        let event = try window.execute(.setAppearance(Appearance(), merge: false))
        #expect(window.model(3)?.appearanceOverride == nil)
        #expect(event.steps == [.appearance(model: 3, appearance: Self.receiptDeclared.resolved(over: nil))])
    }

    @Test func theSameOverrideChangesNothing() throws {
        let window = try window(.stack([home, .screen("detail").appearing(Appearance(backButton: false))]))
        let event = try window.execute(.setAppearance(Appearance(backButton: false)))
        #expect(event.version == 0 && window.version == 0)
    }

    @Test func aModelIsAddressedByTag() throws {
        let window = try window(.stack([.screen("list", tag: "list"), .screen("detail")]))
        try window.execute(.setAppearance(model: .tag("list"), Appearance(navigationBar: false)))
        #expect(window.model(2)?.appearanceOverride == Appearance(navigationBar: false))
        #expect(window.model(3)?.appearanceOverride == nil)
    }

    @Test func anUnknownTagIsRefused() throws {
        let window = try window(.stacked(home))
        expectRejected(window, .unknownTag("nope")) { () throws(NavigationError) in
            try window.execute(.setAppearance(model: .tag("nope"), Appearance(tabBar: false)))
        }
    }

    @Test func aFailedBatchLeavesTheOverrideAsItWas() throws {
        let window = try window(.stack([home, .screen("detail")]))
        #expect(throws: NavigationError.self) {
            try window.apply([BatchCommand(.setAppearance(Appearance(tabBar: false))), BatchCommand(.stackDropLast(0))])
        }
        #expect(window.model(3)?.appearanceOverride == nil && window.version == 0)
    }

    @Test func theOverrideSurvivesASnapshotRoundTrip() throws {
        let window = try window(.stack([home, .screen("receipt")]))
        try window.execute(.setAppearance(Appearance(titleDisplayMode: .large)))
        let data = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(
            snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: data),
            configuration: WindowConfiguration(appearances: ["receipt": Self.receiptDeclared]))
        #expect(restored.model(3)?.appearanceOverride == Appearance(titleDisplayMode: .large))
        #expect(restored.snapshot() == window.snapshot())
    }

    @Test func theDirectSnapshotWriterWritesAppearanceAndOverride() throws {
        let window = try window(.stack([home, .screen("receipt").appearing(Appearance(titleDisplayMode: .large))]))
        let direct = try window.snapshot().json()
        let decoded = try JSONDecoder().decode(WindowSnapshot.self, from: Data(direct))
        #expect(decoded == window.snapshot())
        let text = String(decoding: direct, as: UTF8.self)
        #expect(text.contains(#""appearance":{"backButton":false,"navigationBar":true,"tabBar":false,"titleDisplayMode":"large"},"appearanceOverride":{"titleDisplayMode":"large"}"#))
    }

    @Test func setAppearanceDecodesStrictly() throws {
        let batch = try CommandJSONTests.decodeBatch(
            #"[{"command":"setAppearance","model":12,"appearance":{"backButton":false,"navigationBar":true,"tabBar":false}}]"#)
        #expect(batch[0].command == .setAppearance(model: 12, Appearance(backButton: false, navigationBar: true, tabBar: false)))
        #expect(throws: DecodingError.self) {
            try CommandJSONTests.decodeBatch(#"[{"command":"setAppearance","appearance":{"backButon":false}}]"#)
        }
        #expect(throws: DecodingError.self) {
            try CommandJSONTests.decodeBatch(#"[{"command":"setAppearance","appearance":{"tabBar":"no"}}]"#)
        }
        #expect(throws: DecodingError.self) {
            try CommandJSONTests.decodeBatch(#"[{"command":"setAppearance","appearance":{"titleDisplayMode":"huge"}}]"#)
        }
    }

    @Test func setTabBarRuleChangesTheLiveStacksRuleWithOneStep() throws {
        let window = try window(.stack([home, .screen("detail")]))
        let event = try window.execute(.setTabBarRule(hiddenWhenNotRoot: true, animated: false))
        #expect(window.model(1)?.content == .stack(path: [StackElement(model: 2), StackElement(model: 3)], hidesTabBarWhenNotAtRoot: true))
        #expect(window.model(1)?.hidesTabBarAnimated == false)
        #expect(NavigationStep.json(event.steps)
            == #"[{"kind":"tabBarRule","stack":1,"hiddenWhenNotRoot":true,"animated":false}]"#)
    }

    @Test func theSameTabBarRuleChangesNothing() throws {
        let window = try window(.stacked(home))
        let event = try window.execute(.setTabBarRule(hiddenWhenNotRoot: false, animated: true))
        #expect(event.version == 0)
    }

    @Test func setTabBarRuleOnAModelThatIsNotAStackIsRefused() throws {
        let window = try window(.stacked(home))
        expectRejected(window, .wrongKind(2, expected: "stack")) { () throws(NavigationError) in
            try window.execute(.setTabBarRule(stack: 2, hiddenWhenNotRoot: true))
        }
    }

    @Test func theTabBarRuleSurvivesASnapshotRoundTrip() throws {
        let window = try window(.stacked(home))
        try window.execute(.setTabBarRule(hiddenWhenNotRoot: true, animated: false))
        let direct = try window.snapshot().json()
        let restored = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: Data(direct)))
        #expect(restored.model(1)?.hidesTabBarAnimated == false)
        #expect(restored.snapshot() == window.snapshot())
    }

    @Test func setTabBarRuleDecodesTheIssuesForm() throws {
        let batch = try CommandJSONTests.decodeBatch(
            #"[{"command":"setTabBarRule","stack":5,"hiddenWhenNotRoot":true,"animated":true}]"#)
        #expect(batch[0].command == .setTabBarRule(stack: 5, hiddenWhenNotRoot: true, animated: true))
    }
}
