import Foundation
import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

/// A manifest is bounded like run-time input, says where a key is given twice, and
/// loads in linear time.
struct ManifestLimitTests {
    /// The demo manifest with `count` extra deep-link routes `r<i>` → `detail{id}`.
    static func demo(withRoutes count: Int) -> String {
        let routes = (0..<count).map { index in
            #"{"name": "r\#(index)", "pattern": "r\#(index)/:id(int)", "destination": {"window": {"scene": "main"}, "#
                + #""tab": "home", "push": [{"screen": "detail", "params": {"id": "{id}"}}]}}"#
        }
        return Manifest.demoJSON.replacingOccurrences(
            of: #""routes": ["#, with: #""routes": ["# + routes.joined(separator: ",\n") + ",\n")
    }

    /// The demo manifest with its title replaced by `title` (JSON-escaped by the caller).
    static func demo(title: String) -> String {
        Manifest.demoJSON.replacingOccurrences(of: #""title": "NavSession Demo""#, with: #""title": "\#(title)""#)
    }

    @Test func demoTitleEditApplies() {
        #expect(Self.demo(title: "x") != Manifest.demoJSON)
    }

    @Test func duplicateKeyIsAnErrorWithLineAndColumn() {
        let text = "{\n  \"id\": \"org.x.Y\",\n  \"screens\": [],\n  \"id\": \"org.x.Z\"\n}"
        #expect(throws: ManifestError.duplicateKey(line: 4, column: 3, name: "id")) { try Manifest(json: text) }
    }

    @Test func duplicateKeyWrittenWithAnEscapeIsTheSameKey() {
        let text = #"{"screens": [], "\u0073creens": []}"#
        #expect(throws: ManifestError.duplicateKey(line: 1, column: 17, name: "screens")) { try Manifest(json: text) }
    }

    @Test func sameKeyInDifferentObjectsIsAllowed() throws {
        #expect(try Manifest(json: Manifest.demoJSON) == Manifest.demo())
    }

    @Test func manifestOverTheSizeLimitIsRefusedBeforeParsing() {
        let padding = String(repeating: " ", count: Manifest.maximumBytes)
        let text = Manifest.demoJSON + padding
        #expect(throws: ManifestError.tooLarge(key: "(root)", bytes: text.utf8.count, limit: Manifest.maximumBytes)) {
            try Manifest(json: text)
        }
    }

    @Test func manifestFileOverTheSizeLimitIsRefusedNamingThePath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = Manifest.demoJSON + String(repeating: " ", count: Manifest.maximumBytes)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ManifestError.tooLarge(key: path, bytes: text.utf8.count, limit: Manifest.maximumBytes)) {
            try Manifest(contentsOfFile: path)
        }
    }

    @Test func titleOverTheTextLimitIsRefused() {
        let limit = GraphLimits().maxTextBytes
        let text = Self.demo(title: String(repeating: "t", count: limit + 1))
        do {
            _ = try Manifest(json: text)
            Issue.record("a title of \(limit + 1) bytes loaded")
        } catch {
            guard case .textTooLong(_, let bytes, let reportedLimit) = error else {
                Issue.record("expected textTooLong, got \(error)")
                return
            }
            #expect(bytes == limit + 1)
            #expect(reportedLimit == limit)
            #expect(error.key.hasPrefix("line "))
        }
    }

    @Test func titleAtTheTextLimitLoads() throws {
        let title = String(repeating: "t", count: GraphLimits().maxTextBytes)
        #expect(try Manifest(json: Self.demo(title: title)).title == title)
    }

    @Test func escapesCountAsTheBytesTheyStandFor() throws {
        // 2 048 × "\u00e9" is 12 288 bytes of JSON but 4 096 bytes of text: at the limit, not over it.
        let title = String(repeating: #"\u00e9"#, count: GraphLimits().maxTextBytes / 2)
        #expect(try Manifest(json: Self.demo(title: title)).title?.utf8.count == GraphLimits().maxTextBytes)
    }

    @Test func screenNameOverTheNameLimitIsRefusedNamingTheKey() {
        let long = String(repeating: "s", count: GraphLimits().maxNameBytes + 1)
        let scene = SceneDeclaration(name: "main", isDefault: true, root: .screen(long))
        #expect(throws: ManifestError.nameTooLong(key: "screens[0].name", bytes: long.utf8.count, limit: 255)) {
            try Manifest(applicationID: "org.x.Y", screens: [ScreenDeclaration(name: long)], scenes: [scene])
        }
    }

    @Test func objectKeyOverTheNameLimitIsRefused() {
        let long = String(repeating: "k", count: GraphLimits().maxNameBytes + 1)
        let text = #"{"id": "org.x.Y", "screens": [], "scenes": [], "dialogs": {"\#(long)": {}}}"#
        #expect(throws: ManifestError.nameTooLong(key: "line 1, column 60", bytes: long.utf8.count, limit: 255)) {
            try Manifest(json: text)
        }
    }

    @Test func scenario11TenThousandDeepLinkRoutesLoad() throws {
        let manifest = try Manifest(json: Self.demo(withRoutes: 10_000))
        let router = try #require(manifest.router)
        #expect(router.routes.count == 10_007)
        let plan = try router.plan(for: "navsession-demo://r9999/7")
        #expect(plan.route == "r9999")
        #expect(plan.destination.push.first?.params["id"] == "7")
    }
}
