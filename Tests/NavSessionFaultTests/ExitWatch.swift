import Foundation
import Synchronization

/// A launched process's exit as an awaitable, cancellable event (fed by `Process.terminationHandler`).
final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    var status: Int32? { state.withLock { $0.status } }

    func markExited(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The exit status once the process has exited, or nil after `timeout` (or when cancelled).
    func wait(within timeout: Duration) async -> Int32? {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.untilExited() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return status
    }

    private func untilExited() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.status != nil || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
