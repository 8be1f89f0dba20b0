import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// `Apply`'s `transaction` option through the bus, on the demo manifest.
@Suite(.serialized) struct TransactionPayloadBusTests {
    static let append = #"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#

    @Test func applyWithTheTransactionOptionThroughGdbusDeliversItInChangedsCause() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let changed = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Changed")
            let result = try await fixture.gdbus(
                window, "Apply", [Self.append, #"{"transaction": "{\"source\":\"swipe\"}"}"#])
            #expect(result.status == 0, "\(result)")
            let signal = try await first(changed, timeout: .seconds(10)) { _ in true }
            let cause = try #require(signal.arguments[2].string)
            #expect(cause.contains(#"{"command":"transaction","payload":{"source":"swipe"}}"#), "\(cause)")
        }
    }

    @Test func aTransactionOptionThatIsNotAnObjectIsInvalidArgsAndNothingChanges() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            for text in ["[1]", "not json", String(repeating: "x", count: 5000)] {
                let result = try await fixture.dbusSend(
                    window, "Apply", ["string:\(Self.append)", "dict:string:string:transaction,\(text)"])
                #expect(result.status != 0)
                #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
            }
            #expect(try await fixture.version(window) == version)
        }
    }

    @Test func theClientsApplyCarriesTheTransactionToEveryChangeSubscriber() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let client = try await fixture.connectClient()
            let proxy = try client.window(window)
            let changes = try await client.changes(of: proxy)
            let payload = JSONValue.object(["animation": .string("spring")])
            try await proxy.apply([BatchCommand(.stackAppend(.screen("about")))], transaction: payload)
            var iterator = changes.makeAsyncIterator()
            guard case .changed(let change)? = try await iterator.next() else {
                Issue.record("no change")
                return
            }
            #expect(change.transaction == payload)
            await client.close()
        }
    }
}
