import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// React Navigation's `replace(name, params)` through every way in: gdbus, `navsessionctl exec`, a batch, and the
/// Swift client's generated method.
@Suite struct ReplaceBusTests {
    @Test func gdbusReplacesTheTopAndRefusesAnEmptyScreen() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try await fixture.modelID(window, where: "screen", is: "detail")
            let replaced = try await fixture.gdbus(window, "Replace", ["detail", "{'id': '2'}"])
            #expect(replaced.status == 0, "\(replaced)")
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            #expect(try await fixture.modelID(window, where: "screen", is: "detail") != detail)
            let routes = try json(try await fixture.window(window, "GetRoutes").first?.string) as? [[String: Any]]
            #expect(routes?.first?["params"] as? [String: String] == ["id": "2"])
            let empty = try await fixture.gdbus(window, "Replace", ["", "{}"])
            #expect(empty.status != 0 && empty.stderr.contains("InvalidArgs"), "\(empty)")
            let unknown = try await fixture.gdbus(window, "Replace", ["nowhere", "{}"])
            #expect(unknown.status != 0 && unknown.stderr.contains("org.navsession.Error.UnknownScreen"), "\(unknown)")
        }
    }

    @Test func navsessionctlAndABatchReplaceTheTop() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            let ctl = try BuiltProduct.require("navsessionctl").path
            let exec = try await fixture.run(ctl, ["exec", "1", "replace", "detail", "id=7"])
            #expect(exec.status == 0, "\(exec)")
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            let batch = try await fixture.gdbus(window, "Apply", [#"[{"command":"replace","screen":"about","transition":"fade"}]"#, "{}"])
            #expect(batch.status == 0, "\(batch)")
            #expect(try await fixture.routeSummaries(window) == ["push about"])
            let refused = try await fixture.gdbus(window, "Apply", [#"[{"command":"replace","screen":"about","merge":true}]"#, "{}"])
            #expect(refused.status != 0 && refused.stderr.contains("merge"), "\(refused)")
        }
    }

    @Test func theSwiftClientsGeneratedMethodReplacesTheTop() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let client = try await fixture.connectClient()
            let proxy = try client.window(window)
            _ = try await proxy.stackAppend("about")
            let version = try await proxy.replace(screen: "detail", params: ["id": "3"])
            #expect(try await fixture.version(window) == version)
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            await client.close()
        }
    }
}
