import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// ``WindowProxy/presentOn(_:kind:screen:params:transition:replace:)`` against the real daemon.
@Suite(.timeLimit(.minutes(2)))
struct PresentOnClientTests {
    @Test func presentOnReplacesAndTheRefusalIsTyped() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.switchModel("main")
            try await window.present("sheet", screen: "about")
            let state = try await window.getState()
            let tabs = try #require(state.models.first { $0.kind == .tabs }?.id)
            let about = try #require(state.models.first { $0.screen == "about" }?.id)
            await #expect(throws: NavSessionError.self) {
                try await window.presentOn(.id(tabs), kind: "sheet", screen: "profile")
            }
            do throws(NavSessionError) {
                try await window.presentOn(.id(tabs), kind: "sheet", screen: "profile")
            } catch {
                guard case .alreadyPresenting = error else { Issue.record("\(error)"); return }
            }
            let result = try await window.presentOn(.id(tabs), kind: "cover", screen: "profile", transition: "zoom", replace: true)
            let after = try await window.getState()
            #expect(after.model(about) == nil)
            let profile = try #require(after.models.first { $0.screen == "profile" })
            #expect(result.started == [profile.id] && result.version == UInt64(after.version))
            #expect(profile.parent == tabs && profile.transition == "zoom")
        }
    }
}
