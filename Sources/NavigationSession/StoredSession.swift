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

    /// What makes the file inconsistent, or `nil`: counters above ``WindowSnapshot/maxCounter`` (they
    /// would overflow when counted on), window numbers outside `1..<nextWindow` (a later window would
    /// reuse one) or listed twice. The session never writes such a file.
    var inconsistency: String? {
        let maxCounter = WindowSnapshot.maxCounter
        guard (0...maxCounter).contains(generation), sessionVersion <= maxCounter else {
            return "generation \(generation) or sessionVersion \(sessionVersion) is outside 0...\(maxCounter)"
        }
        var numbers: Set<WindowNumber> = []
        for window in windows {
            guard window.number >= 1, window.number < nextWindow else {
                return "window \(window.number) is not in 1..<nextWindow (\(nextWindow))"
            }
            guard numbers.insert(window.number).inserted else { return "window \(window.number) is listed twice" }
            guard window.lastActivity <= maxCounter else {
                return "window \(window.number): lastActivity \(window.lastActivity) is above \(maxCounter)"
            }
        }
        return nil
    }
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
