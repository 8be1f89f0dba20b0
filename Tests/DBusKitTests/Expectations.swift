import DBusKit
import Testing

/// Runs `body` and returns the ``BusError`` it threw, recording an issue if it threw nothing else.
func busError(_ body: () async throws -> [Value]) async -> BusError? {
    do {
        let values = try await body()
        Issue.record("expected a BusError, got \(values)")
        return nil
    } catch let error as BusError {
        return error
    } catch {
        Issue.record("expected a BusError, got \(error)")
        return nil
    }
}

/// Runs `body` and returns the ``ConnectionError`` it threw.
func connectionError(_ body: () async throws -> [Value]) async -> ConnectionError? {
    do {
        let values = try await body()
        Issue.record("expected a ConnectionError, got \(values)")
        return nil
    } catch let error as ConnectionError {
        return error
    } catch {
        Issue.record("expected a ConnectionError, got \(error)")
        return nil
    }
}

/// Whether `body` finishes within `timeout`; a test awaiting something that never happens fails instead of hanging.
func completes(within timeout: Duration = .seconds(10), _ body: @escaping @Sendable () async -> Void) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await body()
            return true
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let result = await group.next() ?? false
        group.cancelAll()
        return result
    }
}
