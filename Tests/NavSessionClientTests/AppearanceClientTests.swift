import Foundation
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// NavSessionClient's appearance calls against the demo.
struct AppearanceClientTests {
    private static func loggedIn(_ daemon: NavSessionTestDaemon) async throws -> WindowProxy {
        let window = try await daemon.session.openWindow(scene: "main")
        try await window.switchModel("main")
        return window
    }

    @Test func setAppearanceByTagChangesTheResolvedAppearanceInTheState() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.apply([BatchCommand(.stackAppend(.screen("editor", params: ["id": "1"], tag: "draft")))])
            let draft = try await window.model(forTag: "draft")
            let before = try await window.version
            let version = try await window.setAppearance(Appearance(titleDisplayMode: .large), of: .tag("draft"))
            #expect(version == before + 1)
            let model = try #require(try await window.getState().models.first { $0.id == draft })
            #expect(model.appearanceOverride == Appearance(titleDisplayMode: .large))
            #expect(model.appearance == Appearance(backButton: false, navigationBar: true, tabBar: false, titleDisplayMode: .large))
        }
    }

    @Test func setTabBarRuleSetsTheActiveStacksRule() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await Self.loggedIn(daemon)
            try await window.setTabBarRule(hiddenWhenNotRoot: true, animated: false)
            let stacks = try await window.getState().models.filter { $0.kind == .stack }
            #expect(stacks.contains { $0.path?.count == 1 && $0.hidesTabBarAnimated == false })
        }
    }
}

/// NavSessionClient's `setRendererState(_:for:)` against the demo.
struct RendererStateClientTests {
    @Test func setRendererStateForAModelAndTheWindowShowsInTheSnapshot() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.switchModel("main")
            let active = try await window.activeModel
            let before = try await window.version
            let version = try await window.setRendererState(RendererState(["scroll": .number(300)]), for: active)
            #expect(version == before + 1)
            try await window.setRendererState(RendererState(["width": .number(900)]))
            let state = try await window.getState()
            #expect(state.rendererState == RendererState(["width": .number(900)]))
            #expect(state.models.first { $0.id == active }?.rendererState == RendererState(["scroll": .number(300)]))
        }
    }
}
