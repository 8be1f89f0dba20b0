internal import CDBus

/// One client call in flight. Owned by `Bus` and libdbus's notify slot; touched only on the bus thread.
final class PendingCall {
    let id: UInt64
    weak var bus: Bus?
    var pending: OpaquePointer?
    var continuation: CheckedContinuation<[Value], any Error>?

    init(id: UInt64, bus: Bus, continuation: CheckedContinuation<[Value], any Error>) {
        self.id = id
        self.bus = bus
        self.continuation = continuation
    }

    /// Resumes the caller once; later calls (e.g. a cancel racing the reply) do nothing.
    func finish(_ result: Result<[Value], any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        if let pending {
            self.pending = nil
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
        }
        continuation.resume(with: result)
    }
}
