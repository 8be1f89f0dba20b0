import DBusKit
import DBusTestSupport
import Synchronization
import Testing

@Suite struct PropertiesTests {
    let properties = "org.freedesktop.DBus.Properties"

    @Test func getReturnsTheGettersValueInAVariant() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let reply = try await fixture.call(client, "Get", [.string(TestNames.interfaceName), .string("Name")], interface: properties)
        #expect(reply == [.variant(.string("initial"))])
        await client.close()
        await fixture.stop()
    }

    @Test func getAllReturnsEveryReadableProperty() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let reply = try await fixture.call(client, "GetAll", [.string(TestNames.interfaceName)], interface: properties)
        #expect(reply == [.options([("Name", .string("initial")), ("Counter", .uint32(0)), ("Version", .string("1.0"))])])
        await client.close()
        await fixture.stop()
    }

    @Test func setStoresTheValueAndEmitsPropertiesChanged() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let changes = try await client.signals(matching: MatchRule(
            path: try ObjectPath(TestNames.objectPath), interface: .properties, member: try MemberName("PropertiesChanged")))
        _ = try await fixture.call(
            client, "Set", [.string(TestNames.interfaceName), .string("Name"), .variant(.string("renamed"))], interface: properties)
        let signal = try #require(await first(changes))
        #expect(signal.arguments == [
            .string(TestNames.interfaceName), .options([("Name", .string("renamed"))]), .array(.string, []),
        ])
        #expect(fixture.state.name.withLock { $0 } == "renamed")
        await client.close()
        await fixture.stop()
    }

    @Test func propertiesChangedHelperSendsCurrentValues() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let changes = try await client.signals(matching: MatchRule(interface: .properties, member: try MemberName("PropertiesChanged")))
        _ = try await fixture.call(client, "Increment")
        let signal = try #require(await first(changes))
        #expect(signal.path.rawValue == TestNames.objectPath)
        #expect(signal.arguments[1] == .options([("Counter", .uint32(1))]))
        await client.close()
        await fixture.stop()
    }

    @Test func constPropertiesAreNeverSignalled() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let changes = try await client.signals(matching: MatchRule(interface: .properties, member: try MemberName("PropertiesChanged")))
        try await fixture.server.propertiesChanged(
            [try MemberName("Version"), try MemberName("Counter")], interface: try TestNames.interface(),
            at: try ObjectPath(TestNames.objectPath))
        let signal = try #require(await first(changes))
        #expect(signal.arguments[1] == .options([("Counter", .uint32(0))]))
        await client.close()
        await fixture.stop()
    }
}
