import DBusKit
import DBusTestSupport
import Testing

/// Runs `body` and returns the ``BusError`` it threw, recording an issue if it threw nothing else.
func busError(_ body: () async throws -> [Value]) async -> BusError? {
    let (error, unexpected) = await thrownError(BusError.self, body)
    if let unexpected { Issue.record(Comment(rawValue: unexpected)) }
    return error
}

/// Runs `body` and returns the ``ConnectionError`` it threw.
func connectionError(_ body: () async throws -> [Value]) async -> ConnectionError? {
    let (error, unexpected) = await thrownError(ConnectionError.self, body)
    if let unexpected { Issue.record(Comment(rawValue: unexpected)) }
    return error
}

/// Whether `body` finishes within the liveness bound of `timeout` (``Liveness/bound(_:)``); a test awaiting
/// something that never happens fails instead of hanging.
func completes(within timeout: Duration = .seconds(10), _ body: @escaping @Sendable () async -> Void) async -> Bool {
    await AsyncStream<Bool>.racing([{ await body(); return true }]).first(within: Liveness.bound(timeout)) ?? false
}
