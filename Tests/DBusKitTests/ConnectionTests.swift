import DBusKit
import DBusTestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func replaceExistingMovesTheNameAndReportsLostAndAcquired() async throws {
        let privateBus = try await PrivateBus.start()
        let first = try await privateBus.connect()
        let second = try await privateBus.connect()
        let name = try BusName("org.example.Replaceable")
        #expect(try await first.requestName(name, options: [.allowReplacement]) == .primaryOwner)
        #expect(await DBusKitTests.first(first.nameEvents, where: { $0 == .acquired(name) }) == .acquired(name))
        #expect(try await second.requestName(name, options: [.replaceExisting, .doNotQueue]) == .primaryOwner)
        #expect(await DBusKitTests.first(first.nameEvents, where: { $0 == .lost(name) }) == .lost(name))
        #expect(await DBusKitTests.first(second.nameEvents, where: { $0 == .acquired(name) }) == .acquired(name))
        await first.close()
        await second.close()
        privateBus.stop()
    }

    @Test func doNotQueueReportsExistsWhenTheNameIsTaken() async throws {
        let privateBus = try await PrivateBus.start()
        let first = try await privateBus.connect()
        let second = try await privateBus.connect()
        let name = try BusName("org.example.Taken")
        #expect(try await first.requestName(name) == .primaryOwner)
        #expect(try await first.requestName(name) == .alreadyOwner)
        #expect(try await second.requestName(name, options: [.doNotQueue]) == .exists)
        #expect(try await second.requestName(name) == .inQueue)
        #expect(try await first.releaseName(name) == .released)
        await first.close()
        await second.close()
        privateBus.stop()
    }

    @Test func killingTheBusDisconnectsAndFailsPendingCalls() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let pending = Task { try await fixture.call(client, "Stall", [.uint32(20_000)]) }
        // The server has the call once its handler is running; Log waits behind it, so use the bus instead.
        _ = try await client.nameHasOwner(try BusName(TestNames.service))
        fixture.privateBus.stop()
        #expect(await completes { await client.disconnected() })
        #expect(await client.isConnected == false)
        let error = await connectionError { try await pending.value }
        #expect(error?.code == .disconnected)
        let after = await connectionError { try await fixture.call(client, "Echo", [.string("x")]) }
        #expect(after?.code == .disconnected)
        await client.close()
        await fixture.server.close()
    }

    @Test func nameEventsFinishWhenTheConnectionCloses() async throws {
        let privateBus = try await PrivateBus.start()
        let bus = try await privateBus.connect()
        await bus.close()
        let events = bus.nameEvents
        #expect(await completes { for await _ in events {} })
        privateBus.stop()
    }

    @Test func connectingToANonexistentAddressThrowsConnectFailed() async throws {
        await #expect {
            _ = try await Bus.connect(.address("unix:path=/nonexistent/dbuskit-test-socket"))
        } throws: { error in
            (error as? ConnectionError)?.code == .connectFailed
        }
    }
}
