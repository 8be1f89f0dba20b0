import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Testing

/// A screen's `initialParams` in the manifest, through the bus: a push and a deep link that leave a parameter out
/// get its default, merged under what they give.
@Suite struct InitialParamsBusTests {
    static let manifest = NavSessionTestDaemon.Configuration.Manifest.json(
        Manifest.demoJSON.replacingOccurrences(
            of: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"]}"#,
            with: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"], "initialParams": {"edit": "false"}}"#))

    func detailParams(_ fixture: DaemonFixture, _ window: String) async throws -> [String: String]? {
        let routes = try json(try await fixture.window(window, "GetRoutes").first?.string) as? [[String: Any]]
        return routes?.last { $0["screen"] as? String == "detail" }?["params"] as? [String: String]
    }

    @Test func aPushWithoutTheParamGetsTheDeclaredDefault() async throws {
        try await DaemonFixture.with(manifest: Self.manifest) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "7"])])
            #expect(try await detailParams(fixture, window) == ["id": "7", "edit": "false"])
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "8", "edit": "true"])])
            #expect(try await detailParams(fixture, window) == ["id": "8", "edit": "true"])
        }
    }

    @Test func aDeepLinkWithoutTheQueryGetsTheDeclaredDefault() async throws {
        try await DaemonFixture.with(manifest: Self.manifest) { fixture in
            let opened = try await fixture.session("OpenURL", [.string("navsession-demo://detail/42")])
            let window = try #require(opened.first?.objectPath?.rawValue)
            if try await detailParams(fixture, window) == nil {
                // The demo's link waits for the log-in (its entry condition), then resumes.
                try await fixture.logIn(window)
            }
            #expect(try await detailParams(fixture, window) == ["id": "42", "edit": "false"])
        }
    }

    /// A screen's `identity` (React Navigation's `getId`) through the bus: pushing detail 1 again brings the detail 1
    /// below the top back up, same model.
    @Test func pushingAScreenWithTheSameIdentityBringsItToTheTop() async throws {
        let manifest = NavSessionTestDaemon.Configuration.Manifest.json(
            Manifest.demoJSON.replacingOccurrences(
                of: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"]}"#,
                with: #"{"name": "detail", "title": "Detail", "required": ["id"], "optional": ["edit"], "identity": ["id"]}"#))
        try await DaemonFixture.with(manifest: manifest) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let first = try await fixture.modelID(window, where: "screen", is: "detail")
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1", "edit": "true"])])
            #expect(try await fixture.routeSummaries(window) == ["push about", "push detail"])
            #expect(try await fixture.windowProperty(window, "ActiveModel") == .uint64(first))
            #expect(try await detailParams(fixture, window) == ["id": "1", "edit": "true"])
        }
    }
}
