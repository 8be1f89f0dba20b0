import DBusKit
import DBusTestSupport
import Testing

@Suite struct AbandonCallTests {
    /// A client that writes a call and vanishes: the call still reaches the server (which replies to no one)
    /// and the server goes on serving.
    @Test func anAbandonedCallIsHandledAfterItsClientLeft() async throws {
        let fixture = try await TestFixture.start()
        let vanishing = try await fixture.privateBus.connect()
        try await vanishing.abandonCall(
            destination: try BusName(TestNames.service), path: try ObjectPath(TestNames.objectPath),
            interface: try InterfaceName(TestNames.interfaceName), member: try MemberName("Append"),
            arguments: [.string("from a vanished client")])
        await vanishing.close()
        let client = try await fixture.privateBus.connect()
        // Handled in arrival order: the abandoned call was read before this one.
        #expect(try await fixture.call(client, "Log") == [.strings(["from a vanished client"])])
        await client.close()
        await fixture.stop()
    }
}
