import DBusKit
import DBusTestSupport
import ProcessSupport
import Testing

/// DBusKit's blocking one-call client (`OneShotCall`): each call runs on a thread of its own, since it blocks.
@Suite struct OneShotCallTests {
    struct NoThread: Error {}

    static func onOwnThread(_ body: @escaping @Sendable () throws -> [Value]) async -> Result<[Value], any Error> {
        await withCheckedContinuation { continuation in
            let started = DetachedThread.start(name: "one-shot") {
                continuation.resume(returning: Result { try body() })
            }
            if !started { continuation.resume(returning: .failure(NoThread())) }
        }
    }

    static func call(
        _ fixture: TestFixture, _ member: String, _ arguments: [Value] = [], destination: String = TestNames.service,
        timeout: Duration = Liveness.bound(.seconds(10))
    ) async -> Result<[Value], any Error> {
        let address = fixture.privateBus.address
        return await onOwnThread {
            try OneShotCall.call(
                on: .address(address), destination: try BusName(destination), path: try ObjectPath(TestNames.objectPath),
                interface: try TestNames.interface(), member: try MemberName(member), arguments: arguments,
                timeout: timeout)
        }
    }

    @Test func aCallIsAnsweredAndAnErrorReplyIsABusError() async throws {
        let fixture = try await TestFixture.start()
        #expect(try await Self.call(fixture, "Echo", [.string("hi")]).get() == [.string("hi")])
        switch await Self.call(fixture, "Nope") {
        case .failure(let error as BusError): #expect(error.name == .unknownMethod)
        case let other: Issue.record("expected UnknownMethod, got \(other)")
        }
        await fixture.stop()
    }

    @Test func noOwnerIsServiceUnknownAndNoReplyInTimeIsTimedOut() async throws {
        let fixture = try await TestFixture.start()
        switch await Self.call(fixture, "Echo", [.string("x")], destination: "org.example.Nobody") {
        case .failure(let error as BusError): #expect(error.name == .serviceUnknown)
        case let other: Issue.record("expected ServiceUnknown, got \(other)")
        }
        // The service stalls far longer than the call waits: the timeout is what ends it.
        switch await Self.call(fixture, "Stall", [.uint32(60_000)], timeout: .milliseconds(300)) {
        case .failure(let error as ConnectionError): #expect(error.code == .timedOut)
        case let other: Issue.record("expected a timeout, got \(other)")
        }
        await fixture.stop()
    }

    @Test func anUnreachableBusIsConnectFailed() async throws {
        let result = await Self.onOwnThread {
            try OneShotCall.call(
                on: .address("unix:path=/nonexistent/bus"), destination: try BusName(TestNames.service),
                path: try ObjectPath(TestNames.objectPath), interface: try TestNames.interface(), member: try MemberName("Echo"))
        }
        switch result {
        case .failure(let error as ConnectionError): #expect(error.code == .connectFailed)
        case let other: Issue.record("expected connectFailed, got \(other)")
        }
    }
}
