import DBusKit
import DBusTestSupport
import Dispatch
import Synchronization
import Testing

@Suite struct SwiftClientTests {
    @Test func echoRoundTripsAString() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        #expect(try await fixture.call(client, "Echo", [.string("héllo")]) == [.string("héllo")])
        await client.close()
        await fixture.stop()
    }

    @Test func callsWithoutInterfaceDispatchByMemberName() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        #expect(try await fixture.call(client, "Add", [.int32(2), .int32(3)], interface: nil) == [.int32(5)])
        await client.close()
        await fixture.stop()
    }

    @Test func handlersSeeTheCallersUniqueName() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let unique = try #require(await client.uniqueName)
        #expect(try await fixture.call(client, "WhoAmI") == [.string(unique.rawValue)])
        await client.close()
        await fixture.stop()
    }

    @Test func pipelinedCallsAreHandledInArrivalOrder() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let items = (0..<200).map { "item\($0)" }
        for item in items {
            try await client.callWithoutReply(
                destination: try BusName(TestNames.service), path: try ObjectPath(TestNames.objectPath),
                interface: try InterfaceName(TestNames.interfaceName), member: try MemberName("Append"),
                arguments: [.string(item)])
        }
        #expect(try await fixture.call(client, "Log") == [.strings(items)])
        await client.close()
        await fixture.stop()
    }

    @Test func aDeferredReplyLetsLaterCallsThroughAndKeepsItsCapture() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        _ = try await fixture.call(client, "Append", [.string("before")])
        let snapshot = Task { try await fixture.call(client, "Snapshot") }
        var captures = fixture.state.captures.makeAsyncIterator()
        _ = await captures.next()
        // Handled while Snapshot's reply is still being built (its gate is closed).
        _ = try await fixture.call(client, "Append", [.string("after")])
        #expect(try await fixture.call(client, "Log") == [.strings(["before", "after"])])
        fixture.state.snapshotGate.signal()
        #expect(try await snapshot.value == [.strings(["before"])])
        await client.close()
        await fixture.stop()
    }

    @Test func deferredRepliesBeyondTheBoundAreBuiltInOrderAndAllAnswered() async throws {
        let fixture = try await TestFixture.start()
        // Two clients: one client may have only ReplyLedger.maximumBuilding replies in the making at once.
        let first = try await fixture.privateBus.connect()
        let second = try await fixture.privateBus.connect()
        let count = Bus.maximumDeferredReplies + 3
        let calls = (0..<count).map { index in
            Task { try await fixture.call(index % 2 == 0 ? first : second, "Snapshot") }
        }
        for _ in 0..<count { fixture.state.snapshotGate.signal() }
        for call in calls { #expect(try await call.value == [.strings([])]) }
        await first.close()
        await second.close()
        await fixture.stop()
    }

    @Test func aDeferredHalfThatThrowsRepliesWithItsError() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        await #expect(throws: BusError.self) { try await fixture.call(client, "SnapshotFails") }
        #expect(try await fixture.call(client, "Echo", [.string("x")]) == [.string("x")])
        await client.close()
        await fixture.stop()
    }

    @Test func aCallWithNoReplyInTimeThrowsTimedOut() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let error = await connectionError {
            try await client.call(
                destination: try BusName(TestNames.service), path: try ObjectPath(TestNames.objectPath),
                interface: try InterfaceName(TestNames.interfaceName), member: try MemberName("Stall"),
                arguments: [.uint32(1500)], timeout: .milliseconds(100))
        }
        #expect(error?.code == .timedOut)
        await client.close()
        await fixture.stop()
    }

    @Test func cancellingTheCallingTaskCancelsThePendingCall() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let started = AsyncStream<Void>.makeStream()
        let task = Task {
            started.continuation.yield()
            // Long enough that the reply cannot win the race on a busy machine (the test thread may be held for
            // seconds between `started` and `cancel()`): a call that ignored the cancellation would wait 20 s.
            return try await fixture.call(client, "Stall", [.uint32(20_000)])
        }
        _ = await first(started.stream)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        await client.close()
        await fixture.stop()
    }

    @Test func errorRepliesFromTheBusArePassedThrough() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let error = await busError {
            try await client.call(
                destination: try BusName("org.example.Nobody"), path: try ObjectPath("/x"), interface: nil,
                member: try MemberName("Ping"))
        }
        #expect(error?.name == .serviceUnknown)
        await client.close()
        await fixture.stop()
    }

    @Test func invalidArgumentsAreRejectedBeforeSending() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        await #expect(throws: ValidationError.self) {
            try await fixture.call(client, "Echo", [.string("nul\0inside")])
        }
        #expect(try await fixture.call(client, "Echo", [.string("ok")]) == [.string("ok")])
        await client.close()
        await fixture.stop()
    }
}
