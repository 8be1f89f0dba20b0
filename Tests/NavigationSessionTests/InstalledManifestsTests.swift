import Foundation
import Testing

@testable import NavigationSession

/// Where `navsessiond --name ID` finds an installed application's manifest (XDG Base Directory order).
struct InstalledManifestsTests {
    @Test func userDataComesBeforeEverySystemDirectory() {
        let environment = ["XDG_DATA_HOME": "/home/u/data", "XDG_DATA_DIRS": "/opt/share:/usr/share", "HOME": "/home/u"]
        #expect(InstalledManifests.candidates(for: "org.example.App", environment: environment) == [
            "/home/u/data/navsession/applications/org.example.App.json",
            "/opt/share/navsession/applications/org.example.App.json",
            "/usr/share/navsession/applications/org.example.App.json",
        ])
    }

    @Test func unsetVariablesTakeTheSpecificationsDefaults() {
        #expect(InstalledManifests.dataDirectories(environment: ["HOME": "/home/u"])
            == ["/home/u/.local/share", "/usr/local/share", "/usr/share"])
    }

    @Test func relativeAndRepeatedEntriesAreIgnored() {
        let environment = ["XDG_DATA_HOME": "data", "HOME": "/h", "XDG_DATA_DIRS": "share::/usr/share/:/usr/share"]
        #expect(InstalledManifests.dataDirectories(environment: environment) == ["/h/.local/share", "/usr/share"])
    }

    @Test func theFirstExistingFileWins() throws {
        let environment = ["XDG_DATA_HOME": "/a", "XDG_DATA_DIRS": "/b:/c"]
        let found = try InstalledManifests.locate("org.example.App", environment: environment) {
            $0.hasPrefix("/b/") || $0.hasPrefix("/c/")
        }
        #expect(found == "/b/navsession/applications/org.example.App.json")
    }

    @Test func anUnknownIdNamesEveryPathLookedAt() {
        let environment = ["XDG_DATA_HOME": "/a", "XDG_DATA_DIRS": "/b"]
        #expect(throws: InstalledManifests.NotFound(id: "org.example.App", searched: [
            "/a/navsession/applications/org.example.App.json", "/b/navsession/applications/org.example.App.json",
        ])) {
            try InstalledManifests.locate("org.example.App", environment: environment) { _ in false }
        }
    }

    @Test func anIdThatIsNoApplicationIdIsRefusedBeforeAnyPathIsBuilt() {
        for id in ["../../etc/passwd", "org.example/App", ":1.42", "App"] {
            #expect(throws: ManifestError.self, "\(id)") {
                try InstalledManifests.locate(id, environment: ["XDG_DATA_DIRS": "/b"]) { _ in true }
            }
        }
    }
}
