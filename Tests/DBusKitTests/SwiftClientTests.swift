import DBusKit
import DBusTestSupport
import Testing

@Suite struct SwiftClientTests {
    @Test func echoRoundTripsAString() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let reply = try await fixture.call(client, "Echo", [.string("héllo")])
        #expect(reply == [.string("héllo")])
        await client.close()
        await fixture.stop()
    }
}
