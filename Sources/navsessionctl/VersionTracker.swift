/// The last version seen per window, to notice missed changes (Changed.previous_version past it).
struct VersionTracker: Sendable {
    private var versions: [String: UInt64] = [:]

    /// Records a window's known version (from a property read or InterfacesAdded).
    mutating func seed(_ window: String, version: UInt64) {
        versions[window] = max(versions[window] ?? version, version)
    }

    /// Forgets a closed window.
    mutating func forget(_ window: String) {
        versions[window] = nil
    }

    /// Records a Changed; returns a ``WatchEvent/missed(window:lastSeen:previous:)`` when changes were skipped.
    ///
    /// A Changed at or below the known version (already counted by a seed that raced with the subscription)
    /// is not a gap.
    mutating func observe(_ window: String, version: UInt64, previous: UInt64) -> WatchEvent? {
        defer { seed(window, version: version) }
        guard let known = versions[window], previous > known else { return nil }
        return .missed(window: window, lastSeen: known, previous: previous)
    }
}
