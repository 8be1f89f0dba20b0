/// How one call ended, as the client saw it.
enum CallOutcome: Codable, Hashable, Sendable {
    /// Answered with the window's new version: an acknowledged change.
    case acknowledged(version: UInt64)
    /// Answered with a documented navigation error (`org.navsession.Error.*`): nothing changed.
    case rejected(error: String)
    /// Never delivered: the daemon the call was addressed to was gone (`ServiceUnknown`); nothing changed.
    case undelivered(error: String)
    /// No answer (the daemon died with the call in flight): it may or may not have been applied.
    case unknown(error: String)
    /// Answered with anything else (an undocumented error, a malformed reply): a test failure.
    case failed(error: String)
}

/// One call a client made.
struct CallRecord: Codable, Hashable, Sendable {
    /// Which client (−1: the coordinator's setup).
    var client: Int
    var window: UInt64
    var command: LoadCommand
    /// The daemon instance the call was addressed to (0 = first start, k = after the k-th fault).
    var generation: Int
    var outcome: CallOutcome
    /// Call latency in microseconds.
    var micros: UInt32
}

/// Everything one client process reports back (its `--out` file).
struct ClientResult: Codable, Sendable {
    var client: Int
    var records: [CallRecord]
}
