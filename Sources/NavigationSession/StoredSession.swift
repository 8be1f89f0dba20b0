import NavigationCore

/// The snapshot file: the whole session at one journal generation.
///
/// `{"format":"navsession-state","formatVersion":1,"applicationID":"org.navsession.Demo","generation":3,
/// "sessionVersion":7,"nextWindow":5,"windows":[{"number":1,"scene":"main","lastActivity":9,
/// "closeOnExitOwner":":1.42","pendingDeepLink":null,"snapshot":{…WindowSnapshot…}}]}`
struct StoredSession: Codable, Hashable {
    static let formatName = "navsession-state"
    static let formatVersion = 1

    var format: String
    var formatVersion: Int
    var applicationID: String
    var generation: Int
    var sessionVersion: UInt64
    var nextWindow: WindowNumber
    var windows: [StoredWindow]
}

/// One window in the snapshot file.
struct StoredWindow: Codable, Hashable {
    var number: WindowNumber
    var scene: String
    var lastActivity: UInt64
    var closeOnExitOwner: String?
    var pendingDeepLink: String?
    var snapshot: WindowSnapshot
}

/// What the store found on disk, ready for the session to replay.
struct LoadedState {
    var snapshot: StoredSession?
    var entries: [JournalEntry]
    /// The smallest window number never seen in any readable state (used after a corrupt start too).
    var nextWindow: WindowNumber
}
