import DBusKit
import FoundationEssentials
import NavigationCore

/// A window's history, its state at a version, its trace.
extension WindowProxy {
    /// One change of a window's history (`GetHistory`).
    public struct HistoryEntry: Hashable, Sendable, Decodable {
        /// The version the change reached.
        public var version: Int
        /// Wall-clock milliseconds since the Unix epoch; `nil` for changes read back from an older journal.
        public var time: Int64?
        /// Its cause, as `Changed`'s `cause_json` carries it.
        public var cause: ChangeCause
        /// The active screen right after it.
        public var activeScreen: String
    }

    /// The window's recent changes, oldest first (`GetHistory`; at most `SessionLimits.historyLength`).
    public func history() async throws(NavSessionError) -> [HistoryEntry] {
        try JSONCoding.decode([HistoryEntry].self, from: try await historyJSON())
    }

    /// `GetHistory`'s JSON text.
    public func historyJSON() async throws(NavSessionError) -> String {
        try Reply.string(try await call("GetHistory"), "GetHistory")
    }

    /// The window's state right after `version` (`GetStateAt`), read-only.
    /// - Throws: ``NavSessionError`` `org.navsession.Error.VersionNotKept` for a version outside the kept range.
    public func state(at version: Int) async throws(NavSessionError) -> WindowSnapshot {
        try JSONCoding.decode(WindowSnapshot.self, from: try await stateJSON(at: version))
    }

    /// `GetStateAt`'s JSON text.
    public func stateJSON(at version: Int) async throws(NavSessionError) -> String {
        try Reply.string(try await call("GetStateAt", [.uint64(UInt64(clamping: version))]), "GetStateAt")
    }

    /// The window's trace (`ExportTrace`, Docs/persistence.md, "Traces").
    public func traceJSON() async throws(NavSessionError) -> String {
        try Reply.string(try await call("ExportTrace"), "ExportTrace")
    }
}
