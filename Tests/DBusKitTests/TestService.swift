import DBusKit
import Dispatch
import DBusTestSupport
import Synchronization
import Testing

/// A domain error with its own D-Bus name, to test BusErrorConvertible.
struct ExampleError: Error, BusErrorConvertible {
    var busError: BusError {
        BusError((try? ErrorName("org.example.Error.X")) ?? .failed, "example failure")
    }
}

/// An error type that adopts nothing, so it must map to Failed.
struct UnmappedError: Error {}

/// The state behind the test object's properties.
final class TestState: Sendable {
    let name = Mutex("initial")
    let counter = Mutex<UInt32>(0)
    let log = Mutex<[String]>([])
    /// Released by a test to let `Snapshot`'s off-thread half finish.
    let snapshotGate = DispatchSemaphore(value: 0)
    /// Yields each time `Snapshot` has captured (its first half ran).
    let captures: AsyncStream<Void>
    let captured: AsyncStream<Void>.Continuation
    /// What `AppendLater`'s completing half waits for; open unless a test closes it.
    let laterGate = Gate()

    init() {
        (captures, captured) = AsyncStream<Void>.makeStream()
    }
}

/// A gate a task can wait at without holding a thread: waiting suspends, opening resumes every waiter once.
final class Gate: Sendable {
    private struct State {
        var open = true
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func close() {
        state.withLock { $0.open = false }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at once when open; else when ``open()`` is called.
    func pass() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Names and objects shared by the integration tests.
enum TestNames {
    static let service = "org.example.Test"
    static let interfaceName = "org.example.Test1"
    static let rootPath = "/org/example/Test1"
    static let objectPath = "/org/example/Test1/object"

    static func path(_ text: String) throws -> ObjectPath { try ObjectPath(text) }
    static func member(_ text: String) throws -> MemberName { try MemberName(text) }
    static func interface() throws -> InterfaceName { try InterfaceName(interfaceName) }

    /// The test interface: one declaration, reused for every exported test object.
    static func interface(state: TestState) throws -> Interface {
        try Interface(
            interfaceName,
            methods: [
                Interface.Method("Echo", inputs: [.init("text", .string)], outputs: [.init("echoed", .string)]) {
                    call in [call.arguments[0]]
                },
                Interface.Method("Add", inputs: [.init("a", .int32), .init("b", .int32)], outputs: [.init("sum", .int32)]) {
                    call in [.int32((call.arguments[0].int32 ?? 0) &+ (call.arguments[1].int32 ?? 0))]
                },
                Interface.Method("Sum", inputs: [.init("values", .array(.int32))], outputs: [.init("sum", .int64)]) {
                    call in
                    [.int64((call.arguments[0].arrayElements ?? []).reduce(0) { $0 + Int64($1.int32 ?? 0) })]
                },
                Interface.Method("WhoAmI", outputs: [.init("sender", .string)]) { call in
                    [.string(call.sender?.rawValue ?? "")]
                },
                Interface.Method("Append", inputs: [.init("item", .string)]) { call in
                    // Suspending here must not let a later call overtake this one.
                    await Task.yield()
                    state.log.withLock { $0.append(call.arguments[0].string ?? "") }
                    return []
                },
                Interface.Method("Log", outputs: [.init("items", .array(.string))]) { _ in
                    [.strings(state.log.withLock { $0 })]
                },
                try Interface.Method.completingOffBusThread("Snapshot", outputs: [.init("items", .array(.string))]) { _ in
                    // Captured in call order; finished only when the test opens the gate.
                    let captured = state.log.withLock { $0 }
                    state.captured.yield()
                    return {
                        state.snapshotGate.wait()
                        return [.strings(captured)]
                    }
                },
                try Interface.Method.completingOffBusThread("SnapshotFails") { _ in
                    { throw ExampleError() }
                },
                Interface.Method("Stall", inputs: [.init("milliseconds", .uint32)]) { call in
                    try await Task.sleep(for: .milliseconds(Int(call.arguments[0].uint32 ?? 0)))
                    return []
                },
                try Interface.Method.synchronous(
                    "AppendNow", inputs: [.init("item", .string)], outputs: [.init("count", .uint32)]
                ) { call, bus in
                    let count = state.log.withLock { log in
                        log.append(call.arguments[0].string ?? "")
                        return UInt32(log.count)
                    }
                    // Emitted on the bus thread before the reply leaves.
                    try bus.emit(
                        path: call.path, interface: try InterfaceName(interfaceName),
                        member: try MemberName("Incremented"), arguments: [.uint32(count)])
                    return .values([.uint32(count)])
                },
                try Interface.Method.synchronous("AppendLater", inputs: [.init("item", .string)]) { call, _ in
                    let item = call.arguments[0].string ?? ""
                    return .completing {
                        // Suspended (until a test opens the gate, without holding a thread): a later call must
                        // still not overtake this one.
                        await Task.yield()
                        await state.laterGate.pass()
                        state.log.withLock { $0.append(item) }
                        return []
                    }
                },
                try Interface.Method.synchronous("FailNow") { _, _ in throw ExampleError() },
                try Interface.Method.synchronous("FailLater") { _, _ in .completing { throw ExampleError() } },
                Interface.Method("FailTyped") { _ in throw ExampleError() },
                Interface.Method("FailUnmapped") { _ in throw UnmappedError() },
                Interface.Method("Increment", outputs: [.init("value", .uint32)]) { call in
                    let value = state.counter.withLock { value -> UInt32 in
                        value &+= 1
                        return value
                    }
                    try await call.bus.propertiesChanged(
                        [try MemberName("Counter")], interface: try InterfaceName(interfaceName), at: call.path)
                    try await call.bus.emit(
                        path: call.path, interface: try InterfaceName(interfaceName),
                        member: try MemberName("Incremented"), arguments: [.uint32(value)])
                    return [.uint32(value)]
                },
            ],
            properties: [
                Interface.Property(
                    "Name", .string,
                    get: { _ in .string(state.name.withLock { $0 }) },
                    set: { value, _ in state.name.withLock { $0 = value.string ?? "" } }),
                Interface.Property("Counter", .uint32, get: { _ in .uint32(state.counter.withLock { $0 }) }),
                Interface.Property("Version", .string, emitsChangedSignal: .const, get: { _ in .string("1.0") }),
            ],
            signals: [Interface.Signal("Incremented", arguments: [.init("value", .uint32)])],
            annotations: [Interface.Annotation("org.example.Note", "a <test> & \"quote\"")])
    }
}

/// A private bus with a server connection that owns `org.example.Test` and exports the test object.
struct TestFixture {
    let privateBus: PrivateBus
    let server: Bus
    let state: TestState

    static func start() async throws -> TestFixture {
        let privateBus = try await PrivateBus.start()
        let server = try await privateBus.connect()
        let state = TestState()
        await server.addObjectManager(at: try ObjectPath(TestNames.rootPath))
        try await server.export([try TestNames.interface(state: state)], at: try ObjectPath(TestNames.objectPath))
        let reply = try await server.requestName(try BusName(TestNames.service), options: [.doNotQueue])
        #expect(reply == .primaryOwner)
        return TestFixture(privateBus: privateBus, server: server, state: state)
    }

    func stop() async {
        await server.close()
        privateBus.stop()
    }

    /// Calls the test service from a fresh Swift client.
    func call(
        _ client: Bus, _ member: String, _ arguments: [Value] = [], path: String = TestNames.objectPath,
        interface: String? = TestNames.interfaceName
    ) async throws -> [Value] {
        try await client.call(
            destination: try BusName(TestNames.service), path: try ObjectPath(path),
            interface: try interface.map { try InterfaceName($0) }, member: try MemberName(member),
            arguments: arguments, timeout: Liveness.bound(.seconds(10)))
    }
}

/// Awaits the first element of a stream, failing (nil) after the liveness bound of `timeout`
/// (``Liveness/bound(_:)``) instead of hanging. For an element that must come, not to check that none does.
func first<T: Sendable>(
    _ stream: AsyncStream<T>, timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (T) -> Bool = { _ in true }
) async -> T? {
    await stream.first(within: Liveness.bound(timeout), where: predicate)
}
