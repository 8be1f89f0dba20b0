import NavigationCore
import Synchronization

/// A window's latest state, kept current from its change stream (``NavSessionClient/state(of:)``).
///
/// After each change the state is read again (`GetState`), so ``snapshot`` is always a state the daemon
/// really had; a resynchronisation replaces it directly. Once the window is gone, ``isClosed`` is true and
/// ``snapshot`` keeps its last state.
///
/// ```swift
/// let live = try await client.state(of: window)
/// try await window.stackAppend("detail", params: ["id": "1"])
/// let snapshot = try await live.next()        // the state after the next change
/// print(await live.snapshot.version)
/// await live.stop()
/// ```
public actor LiveWindow {
    /// The window followed.
    public nonisolated let window: WindowProxy
    /// The latest state.
    public private(set) var snapshot: WindowSnapshot
    /// Whether following ended: the window is gone, the daemon left, or ``stop()`` was called.
    public private(set) var isClosed = false
    /// The error that ended following, if any (e.g. a failed `GetState`).
    public private(set) var failure: NavSessionError?

    private var waiters: [Int: CheckedContinuation<WindowSnapshot?, Never>] = [:]
    private var nextWaiter = 0
    private nonisolated let follower = Mutex<Task<Void, Never>?>(nil)

    init(window: WindowProxy, initial: WindowSnapshot) {
        self.window = window
        snapshot = initial
    }

    deinit {
        follower.withLock { $0 }?.cancel()
    }

    /// Starts consuming `changes`. The task holds the actor weakly, so dropping the actor ends it.
    nonisolated func follow(_ changes: WindowChanges) {
        let window = self.window
        let task = Task { [weak self] in
            do throws(NavSessionError) {
                for try await change in changes {
                    let fresh = try await change.state(of: window)
                    guard let self else { return }
                    await self.update(fresh)
                }
                await self?.finish(nil)
            } catch where error.isUnknownObject {
                await self?.finish(nil)
            } catch {
                await self?.finish(error)
            }
        }
        follower.withLock { $0 = task }
    }

    private func update(_ fresh: WindowSnapshot) {
        snapshot = fresh
        let resumed = waiters.values
        waiters.removeAll()
        for waiter in resumed { waiter.resume(returning: fresh) }
    }

    private func finish(_ error: NavSessionError?) {
        isClosed = true
        failure = error
        let resumed = waiters.values
        waiters.removeAll()
        for waiter in resumed { waiter.resume(returning: nil) }
    }

    /// The window's version (of ``snapshot``).
    public var version: Int { snapshot.version }

    /// Suspends until the next change has been applied to ``snapshot`` and returns it; `nil` once
    /// following has ended or when the calling task is cancelled.
    public func next() async -> WindowSnapshot? {
        if isClosed || Task.isCancelled { return nil }
        let id = nextWaiter
        nextWaiter += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters[id] = continuation
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Resumes a cancelled ``next()`` with `nil`, if it is still waiting.
    private func cancelWaiter(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(returning: nil)
    }

    /// Stops following; ``isClosed`` becomes true. Idempotent.
    public func stop() {
        follower.withLock { $0 }?.cancel()
        if !isClosed { finish(nil) }
    }
}

extension NavSessionClient {
    /// Follows a window and keeps its latest state (see ``LiveWindow``).
    /// - Throws: ``NavSessionError/windowGone(window:)`` when the window does not exist; call errors.
    public func state(of window: WindowProxy) async throws(NavSessionError) -> LiveWindow {
        let changes = try await changes(of: window)
        guard let initial = changes.initialSnapshot else { throw .windowGone(window: window.path) }
        let live = LiveWindow(window: window, initial: initial)
        live.follow(changes)
        return live
    }
}
