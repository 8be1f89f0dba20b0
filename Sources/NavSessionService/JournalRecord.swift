import NavigationCore

/// One line of the session journal (`<state-dir>/session.journal`, JSON lines).
///
/// Temporary: NavigationSession's `SessionStore` will own persistence; this is the service's stand-in.
/// Kinds: a header (`next`, `version`), a window opened with its initial snapshot (`open`, `scene`,
/// `snapshot`), a change replayed from its cause (`window`, `cause`), a window closed (`close`).
struct JournalRecord: Codable {
    var next: Int?
    var version: UInt64?
    var open: Int?
    var scene: String?
    var snapshot: WindowSnapshot?
    var window: Int?
    var cause: ChangeCause?
    var close: Int?
}
