internal import ProcessSupport
internal import CDBusShims
import Glibc
import Synchronization

/// The dedicated OS thread that owns one libdbus connection and is the ``Bus`` actor's serial executor.
///
/// The thread alternates between running enqueued actor jobs and waiting in `poll` on the connection's
/// watches plus an eventfd; `enqueue` writes the eventfd only when the thread is (about to be) asleep. After
/// every turn it calls ``pump``, which dispatches incoming messages until libdbus reports DISPATCH_COMPLETE.
///
/// One of two `@unchecked Sendable` types in DBusKit (the other is `UncheckedMessage`). Field guards:
/// - `state`: protected by its `Mutex`.
/// - `threadID`: atomic.
/// - `loop`: immutable pointer; the loop's contents are touched only on this thread, except
///   `CDBusShims_loop_wakeup`, which only writes the eventfd and is safe from any thread.
/// - `pump`: read and written only on this thread (set from `Bus` isolated code, which runs here).
final class BusThread: SerialExecutor, @unchecked Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var sleeping = false
        var stopping = false
    }

    private let state = Mutex(State())
    private let threadID = Atomic<UInt>(0)
    let loop: OpaquePointer
    var pump: (() -> Void)?

    /// Starts the thread.
    /// - Throws: ``ConnectionError`` when the eventfd cannot be created.
    init() throws(ConnectionError) {
        guard let loop = CDBusShims_loop_new() else {
            throw ConnectionError(.outOfMemory, "cannot create the bus thread's eventfd")
        }
        self.loop = loop
        guard DetachedThread.start(name: "DBusKit bus", { [self] in self.run() }) else {
            CDBusShims_loop_free(loop)
            throw ConnectionError(.outOfMemory, "cannot start the bus thread")
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let wake = state.withLock { state -> Bool in
            state.jobs.append(unowned)
            return state.sleeping
        }
        if wake { CDBusShims_loop_wakeup(loop) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on this thread; lets `assumeIsolated` work from libdbus callbacks.
    func isIsolatingCurrentContext() -> Bool? {
        isCurrent
    }

    func checkIsolated() {
        // Only reached when Swift code claims `Bus` isolation off the bus thread: a DBusKit bug, not input.
        precondition(isCurrent, "DBusKit: Bus-isolated code ran off the bus thread")
    }

    var isCurrent: Bool {
        threadID.load(ordering: .acquiring) == UInt(pthread_self())
    }

    /// Asks the thread to finish the jobs it has and exit.
    func stop() {
        state.withLock { $0.stopping = true }
        CDBusShims_loop_wakeup(loop)
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        var batch: [UnownedJob] = []
        while true {
            let stopping = state.withLock { state -> Bool in
                swap(&batch, &state.jobs)
                state.sleeping = batch.isEmpty && !state.stopping
                return state.stopping
            }
            if !batch.isEmpty {
                let executor = asUnownedSerialExecutor()
                for job in batch { job.runSynchronously(on: executor) }
                batch.removeAll(keepingCapacity: true)
                pump?()
                continue
            }
            if stopping { break }
            CDBusShims_loop_wait(loop)
            state.withLock { $0.sleeping = false }
            pump?()
        }
        pump = nil
        CDBusShims_loop_free(loop)
    }
}
