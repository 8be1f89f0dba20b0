import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Window1 `Prepare` and `Prepared` through gdbus and navsessionctl: a screen made ahead, listed for renderers, kept
/// across `kill -9`, and shown under its id by a later push of the same screen and params.
@Suite struct PrepareBusTests {
    @Test func aPreparedScreenIsListedSurvivesAKillAndAPushShowsItUnderItsId() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let prepared = try await fixture.gdbus(window, "Prepare", ["detail", "{'id': '42'}"])
            #expect(prepared.status == 0 && prepared.stdout.hasPrefix("(uint64 "), "\(prepared)")
            let id = try #require(UInt64(prepared.stdout.dropFirst("(uint64 ".count).prefix { $0.isNumber }))
            let listed = try #require(try await fixture.windowProperty(window, "Prepared").string)
            #expect(listed.contains(#""model":\#(id),"params":{"id":"42"},"screen":"detail""#), "\(listed)")
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(false))
            let ctl = try BuiltProduct.require("navsessionctl").path
            let again = try await fixture.run(ctl, ["exec", "1", "prepare", "detail", "id=42"])
            #expect(again.status == 0 && again.stdout == "\(id)\n", "the same one: its id, \(again)")
            try await fixture.kill()
            try await fixture.relaunch()
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            #expect(try await fixture.windowProperty(window, "ActiveModel") == .uint64(id))
            #expect(try await fixture.windowProperty(window, "Prepared") == .string("[]"))
            let unknown = try await fixture.gdbus(window, "Prepare", ["nowhere", "{}"])
            #expect(unknown.status != 0 && unknown.stderr.contains("org.navsession.Error.UnknownScreen"), "\(unknown)")
        }
    }
}
