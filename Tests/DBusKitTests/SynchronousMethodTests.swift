import DBusKit
import DBusTestSupport
import Testing

/// Methods declared with `Interface.Method.synchronous`: run from libdbus's dispatch on the bus thread.
@Suite struct SynchronousMethodTests {
    @Test func aSynchronousMethodRepliesWithItsValues() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        #expect(try await fixture.call(client, "AppendNow", [.string("a")]) == [.uint32(1)])
        #expect(try await fixture.call(client, "AppendNow", [.string("b")], interface: nil) == [.uint32(2)])
        await client.close()
        await fixture.stop()
    }

    @Test func aSignalItEmitsReachesSubscribers() async throws {
        // The wire order (signals before the reply) is checked with dbus-monitor in NavSessionServiceTests.
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let incremented = try await client.signals(matching: MatchRule(
            path: try ObjectPath(TestNames.objectPath), interface: try TestNames.interface(),
            member: try MemberName("Incremented")))
        _ = try await fixture.call(client, "AppendNow", [.string("a")])
        #expect(await first(incremented)?.arguments == [.uint32(1)])
        await client.close()
        await fixture.stop()
    }

    @Test func pipelinedCallsBehindACompletingOneWaitForIt() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let items = (0..<40).map { "item\($0)" }
        for (index, item) in items.enumerated() {
            try await client.callWithoutReply(
                destination: try BusName(TestNames.service), path: try ObjectPath(TestNames.objectPath),
                interface: try InterfaceName(TestNames.interfaceName),
                member: try MemberName(index % 2 == 0 ? "AppendLater" : "AppendNow"), arguments: [.string(item)])
        }
        #expect(try await fixture.call(client, "Log") == [.strings(items)])
        await client.close()
        await fixture.stop()
    }

    @Test func aCallAfterACompletingOneWaitsForIt() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        fixture.state.laterGate.close()
        try await client.callWithoutReply(
            destination: try BusName(TestNames.service), path: try ObjectPath(TestNames.objectPath),
            interface: try InterfaceName(TestNames.interfaceName), member: try MemberName("AppendLater"),
            arguments: [.string("first")])
        try await client.callWithoutReply(
            destination: try BusName(TestNames.service), path: try ObjectPath(TestNames.objectPath),
            interface: try InterfaceName(TestNames.interfaceName), member: try MemberName("AppendNow"),
            arguments: [.string("second")])
        // A round trip to the bus daemon after both calls: it routes a connection's messages in order, so
        // AppendNow has reached the service's socket, behind the completing AppendLater, before the gate opens.
        _ = try await client.nameHasOwner(try BusName(TestNames.service))
        fixture.state.laterGate.open()
        #expect(try await fixture.call(client, "AppendNow", [.string("third")]) == [.uint32(3)])
        #expect(try await fixture.call(client, "Log") == [.strings(["first", "second", "third"])])
        await client.close()
        await fixture.stop()
    }

    @Test func anErrorItThrowsRepliesItsOwnName() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        for member in ["FailNow", "FailLater"] {
            let error = await busError { try await fixture.call(client, member) }
            #expect(error?.name.rawValue == "org.example.Error.X", "\(member)")
        }
        // The bus keeps serving after both.
        #expect(try await fixture.call(client, "AppendNow", [.string("a")]) == [.uint32(1)])
        await client.close()
        await fixture.stop()
    }

    @Test func wrongArgumentsAreRejectedBeforeTheHandlerRuns() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let error = await busError { try await fixture.call(client, "AppendNow", [.uint32(1)]) }
        #expect(error?.name == .invalidArgs)
        #expect(try await fixture.call(client, "Log") == [.strings([])])
        await client.close()
        await fixture.stop()
    }
}
