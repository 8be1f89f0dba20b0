/// Everything a run collected, for the verifier.
struct RunData {
    /// Window number → scene.
    var windows: [UInt64: String]
    /// Every call: the coordinator's setup and every client's.
    var records: [CallRecord]
    /// Every `Changed` signal, in arrival order.
    var changes: [ChangeRecord]
    /// Daemon unique name → generation (0 = first start, k = after the k-th fault).
    var generations: [String: Int]
    /// Generation k ≥ 1 → each window's `GetState` JSON right after the restart, before any client call.
    var restores: [Int: [UInt64: String]]
    /// Each window's `GetState` JSON after all clients finished.
    var final: [UInt64: String]
    /// Whether faults (kills, takeovers, second daemons) were part of the run.
    var faults: Bool
    /// Generation k ≥ 1 → the fault that started it.
    var faultOf: [Int: Fault] = [:]
}
