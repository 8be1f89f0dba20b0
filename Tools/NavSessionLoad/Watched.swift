import Synchronization

/// A value that tasks can wait on: ``wait(within:until:)`` returns as soon as an ``update(_:)`` makes the
/// predicate true, or nil when the deadline passes first. Every wait is bounded; nothing polls.
final class Watched<State: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let predicate: @Sendable (State) -> Bool
        let continuation: CheckedContinuation<State?, Never>
    }

    private struct Storage {
        var state: State
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let storage: Mutex<Storage>

    init(_ initial: State) {
        storage = Mutex(Storage(state: initial))
    }

    /// The current value.
    var value: State { storage.withLock { $0.state } }

    /// Changes the value and wakes the waiters it satisfies.
    func update(_ change: (inout State) -> Void) {
        let woken: [(CheckedContinuation<State?, Never>, State)] = storage.withLock { storage in
            change(&storage.state)
            var ready: [(CheckedContinuation<State?, Never>, State)] = []
            storage.waiters.removeAll { waiter in
                guard waiter.predicate(storage.state) else { return false }
                ready.append((waiter.continuation, storage.state))
                return true
            }
            return ready
        }
        for (continuation, state) in woken { continuation.resume(returning: state) }
    }

    /// The value once `predicate` holds, or nil when `timeout` passes first.
    func wait(within timeout: Duration, until predicate: @escaping @Sendable (State) -> Bool) async -> State? {
        await withCheckedContinuation { (continuation: CheckedContinuation<State?, Never>) in
            let registered: Int? = storage.withLock { storage in
                if predicate(storage.state) {
                    continuation.resume(returning: storage.state)
                    return nil
                }
                storage.nextID += 1
                storage.waiters.append(Waiter(id: storage.nextID, predicate: predicate, continuation: continuation))
                return storage.nextID
            }
            guard let id = registered else { return }
            Task {
                // The deadline of this wait, not a wait for readiness.
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        let expired = storage.withLock { storage -> CheckedContinuation<State?, Never>? in
            guard let index = storage.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return storage.waiters.remove(at: index).continuation
        }
        expired?.resume(returning: nil)
    }
}
