import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Manifest `screens[].appearance`.
struct AppearanceManifestTests {
    private func manifest(_ appearance: String) throws -> Manifest {
        try Manifest(json: """
            {"format": 1, "id": "org.example.Look",
             "screens": [{"name": "home"}, {"name": "receipt", "appearance": \(appearance)}],
             "scenes": [{"name": "main", "default": true, "root": {"kind": "stack", "path": [{"screen": "home"}]}}]}
            """)
    }

    @Test func aDeclaredAppearanceReachesTheWindowConfiguration() throws {
        let manifest = try manifest(#"{"backButton": false, "titleDisplayMode": "large"}"#)
        #expect(manifest.windowConfiguration(scene: "main").appearances
            == ["receipt": Appearance(backButton: false, titleDisplayMode: .large)])
    }

    @Test func theDemoEditorHidesItsBackButtonAndTabBar() throws {
        let editor = try #require(try Manifest.demo().windowConfiguration(scene: "main").appearances["editor"])
        #expect(editor.backButton == false && editor.tabBar == false)
    }

    @Test func anUnknownAppearanceKeyNamesItsPath() throws {
        #expect(throws: ManifestError.invalidValue(
            key: "screens[1].appearance.backButon",
            detail: #"unknown key "backButon"; did you mean "backButton"?"#)) {
            try manifest(#"{"backButon": false}"#)
        }
    }

    @Test func aWrongTypeNamesItsPath() throws {
        #expect(throws: ManifestError.invalidValue(key: "screens[1].appearance.tabBar", detail: "expected a boolean")) {
            try manifest(#"{"tabBar": "hidden"}"#)
        }
    }

    @Test func anUnknownTitleDisplayModeIsRefused() throws {
        #expect(throws: ManifestError.self) { try manifest(#"{"titleDisplayMode": "huge"}"#) }
    }

    @Test func theAppearanceSurvivesTheManifestsJSONRoundTrip() throws {
        let manifest = try manifest(#"{"navigationBar": false}"#)
        #expect(try Manifest(json: manifest.json()) == manifest)
    }
}

/// An appearance override and a tab-bar rule are journaled and survive a kill.
struct AppearancePersistenceTests {
    @Test func anOverrideAndATabBarRuleSurviveAKill() throws {
        let directory = temporaryDirectory()
        var before: WindowSnapshot?
        do {
            let session = try demoSession(directory: directory)
            let main = try loggedInMain(session)
            try session.execute(window: main, command: .stackAppend(.screen("editor", params: ["id": "1"])))
            try session.execute(window: main, command: .setAppearance(Appearance(tabBar: true, titleDisplayMode: .large)))
            try session.execute(window: main, command: .setTabBarRule(hiddenWhenNotRoot: true, animated: false))
            before = try session.window(main).graph.snapshot()
            // Dropped without close(): like SIGKILL, only the journal survives.
        }
        let restored = try demoSession(directory: directory)
        let snapshot = try restored.window(#require(restored.windows.first?.number)).graph.snapshot()
        #expect(snapshot == before)
        #expect(snapshot.models.contains { $0.appearanceOverride == Appearance(tabBar: true, titleDisplayMode: .large) })
        #expect(snapshot.models.contains { $0.hidesTabBarAnimated == false })
    }
}
