import DBusKit
import DBusTestSupport
import Testing

@Suite struct SignalTests {
    @Test func emittedSignalsReachSubscribers() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let incremented = try await client.signals(matching: MatchRule(
            path: try ObjectPath(TestNames.objectPath), interface: try TestNames.interface(), member: try MemberName("Incremented")))
        _ = try await fixture.call(client, "Increment")
        let signal = try #require(await first(incremented))
        #expect(signal.arguments == [.uint32(1)])
        #expect(signal.sender == (await fixture.server.uniqueName))
        await client.close()
        await fixture.stop()
    }

    @Test func argumentMatchesFilterSignals() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let member = try MemberName("Note")
        let notes = try await client.signals(matching: MatchRule(interface: try TestNames.interface(), member: member, arguments: [0: "wanted"]))
        let path = try ObjectPath(TestNames.objectPath)
        try await fixture.server.emit(path: path, interface: try TestNames.interface(), member: member, arguments: [.string("other")])
        try await fixture.server.emit(path: path, interface: try TestNames.interface(), member: member, arguments: [.string("wanted")])
        let signal = try #require(await first(notes))
        #expect(signal.arguments == [.string("wanted")])
        await client.close()
        await fixture.stop()
    }

    @Test func pathNamespaceMatchesDescendants() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let member = try MemberName("Note")
        let notes = try await client.signals(matching: MatchRule(pathNamespace: try ObjectPath("/org/example/Test1/window")))
        try await fixture.server.emit(path: try ObjectPath(TestNames.objectPath), interface: try TestNames.interface(), member: member)
        try await fixture.server.emit(path: try ObjectPath("/org/example/Test1/window/4"), interface: try TestNames.interface(), member: member)
        let signal = try #require(await first(notes))
        #expect(signal.path.rawValue == "/org/example/Test1/window/4")
        await client.close()
        await fixture.stop()
    }

    @Test func aClientLeavingIsSeenThroughNameOwnerChanged() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let unique = try #require(await client.uniqueName)
        let changes = try await fixture.server.signals(matching: MatchRule(
            sender: .bus, interface: .bus, member: try MemberName("NameOwnerChanged"), arguments: [0: unique.rawValue]))
        await client.close()
        let signal = try #require(await first(changes))
        #expect(signal.arguments == [.string(unique.rawValue), .string(unique.rawValue), .string("")])
        await fixture.stop()
    }

    @Test func waitUntilNameVanishesReturnsWhenTheClientLeaves() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let unique = try #require(await client.uniqueName)
        let server = fixture.server
        let watcher = Task { try await server.waitUntilNameVanishes(unique) }
        await client.close()
        // Whether the watcher subscribed before or after the client left, it must return without error.
        let finished = await completes { _ = try? await watcher.value }
        #expect(finished)
        if finished {
            let outcome = await watcher.result
            #expect(throws: Never.self) { try outcome.get() }
        }
        await fixture.stop()
    }

    @Test func waitingForANameThatHasNoOwnerReturnsAtOnce() async throws {
        let fixture = try await TestFixture.start()
        try await fixture.server.waitUntilNameVanishes(try BusName(":1.9999"))
        await fixture.stop()
    }
}
