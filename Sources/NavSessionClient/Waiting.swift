import NavigationCore
import Synchronization

extension NavSessionClient {
    /// Waits until the window's state satisfies `predicate`, and returns that state.
    ///
    /// The current state is checked first (read after subscribing to the window's changes), then the state
    /// after each change as it happens — no polling.
    ///
    /// ```swift
    /// let snapshot = try await client.wait(for: window, timeout: .seconds(5)) { $0.models.count > 3 }
    /// ```
    /// - Throws: ``NavSessionError/waitTimedOut(lastState:timeout:)`` carrying the last state seen;
    ///   ``NavSessionError/windowGone(window:)`` when the window closes first;
    ///   ``NavSessionError/daemonLeft(_:)`` when the daemon leaves the bus; call errors.
    public func wait(
        for window: WindowProxy, timeout: Duration = .seconds(10),
        until predicate: @escaping @Sendable (WindowSnapshot) -> Bool
    ) async throws(NavSessionError) -> WindowSnapshot {
        try await wait(for: window, timeout: timeout, observing: { $0 }, until: predicate)
    }

    /// ``wait(for:timeout:until:)`` with the predicate before the timeout:
    /// `wait(for: window, until: { $0.version >= 3 }, timeout: .seconds(5))`.
    public func wait(
        for window: WindowProxy, until predicate: @escaping @Sendable (WindowSnapshot) -> Bool, timeout: Duration
    ) async throws(NavSessionError) -> WindowSnapshot {
        try await wait(for: window, timeout: timeout, until: predicate)
    }

    /// Waits until a value derived from the window's state satisfies `predicate`, and returns that value.
    ///
    /// `observe` runs on the current state first, then after each change (it may call the daemon, e.g.
    /// ``WindowProxy/getRoutes()`` or ``WindowProxy/activeScreen``). The state passed in is the window's
    /// snapshot at or after that change. Whatever `observe` throws ends the wait, as a ``NavSessionError``.
    ///
    /// ```swift
    /// let screen = try await client.wait(for: window, observing: { _ in try await window.activeScreen },
    ///                                    until: { $0 == "detail" })
    /// ```
    /// - Throws: as ``wait(for:timeout:until:)``.
    public func wait<Observed: Sendable>(
        for window: WindowProxy, timeout: Duration = .seconds(10),
        observing observe: @escaping @Sendable (WindowSnapshot) async throws -> Observed,
        until predicate: @escaping @Sendable (Observed) -> Bool
    ) async throws(NavSessionError) -> Observed {
        let changes = try await changes(of: window)
        guard let initial = changes.initialSnapshot else { throw .windowGone(window: window.path) }
        let last = LastState(initial)
        let current = try await mappingErrors { try await observe(initial) }
        if predicate(current) { return current }
        let outcome: Result<Observed, NavSessionError>? = await Deadline.race(timeout) {
            do throws(NavSessionError) {
                for try await change in changes {
                    let snapshot = try await change.state(of: window)
                    last.set(snapshot)
                    let value = try await mappingErrors { try await observe(snapshot) }
                    if predicate(value) { return .success(value) }
                }
                return .failure(Self.endError(changes, window))
            } catch where error.isUnknownObject {
                return .failure(.windowGone(window: window.path))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw error
        case nil: throw .waitTimedOut(lastState: last.value, timeout: timeout)
        }
    }

    /// Waits until the window is gone (dismissed or closed); returns at once when it already is.
    /// - Throws: ``NavSessionError/waitTimedOut(lastState:timeout:)`` with the last state seen;
    ///   ``NavSessionError/daemonLeft(_:)`` when the daemon leaves the bus first.
    public func waitUntilClosed(_ window: WindowProxy, timeout: Duration = .seconds(10))
        async throws(NavSessionError)
    {
        let changes = try await changes(of: window)
        guard let initial = changes.initialSnapshot else { return }
        let last = LastState(initial)
        let outcome: NavSessionError?? = await Deadline.race(timeout) { () async -> NavSessionError? in
            do throws(NavSessionError) {
                for try await change in changes {
                    if case .resynchronized(let snapshot) = change { last.set(snapshot) }
                }
                return changes.endReason == .windowRemoved ? nil : Self.endError(changes, window)
            } catch {
                return error
            }
        }
        switch outcome {
        case .some(nil): return
        case .some(.some(let error)): throw error
        case .none: throw .waitTimedOut(lastState: last.value, timeout: timeout)
        }
    }

    /// The error for a change stream that ended while a condition was awaited.
    static func endError(_ changes: WindowChanges, _ window: WindowProxy) -> NavSessionError {
        switch changes.endReason {
        case .daemonLeft: .daemonLeft("\(window.client.applicationID) left the bus")
        case .connectionClosed: .disconnected("the connection closed")
        case .cancelled: .cancelled
        case .windowRemoved, nil: .windowGone(window: window.path)
        }
    }
}

/// The last state a wait saw, shared between its watching task and its deadline.
final class LastState: Sendable {
    private let state: Mutex<WindowSnapshot?>

    init(_ initial: WindowSnapshot?) {
        state = Mutex(initial)
    }

    var value: WindowSnapshot? { state.withLock { $0 } }

    func set(_ snapshot: WindowSnapshot) {
        state.withLock { $0 = snapshot }
    }
}
