#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
    /// The recently closed windows, most recent first; absent when none (and in older files).
    var closed: [StoredClosedWindow]? = nil
    /// The named sessions, by name; absent when none (and in older files).
    var sessions: [StoredNamedSession]? = nil
    /// The file in the state directory holding the manifest this state was written under (`manifest-<hash>.json`):
    /// a start with another manifest loads the state with that one, then migrates it (Docs/manifest.md, "Changing the
    /// manifest"); absent in files written before it was kept.
    var manifest: String? = nil
    /// What `GetStats` counted up to this snapshot (Session+Statistics.swift); absent before anything was counted.
    var stats: SessionStatistics? = nil

    /// What makes the file inconsistent, or `nil`: counters above ``WindowSnapshot/maxCounter`` (they
    /// would overflow when counted on), a `nextWindow` above ``WindowNumbering/highestStored`` + 1 (numbering
    /// would be nearly exhausted), window numbers outside `1..<nextWindow` (a later window would
    /// reuse one) or listed twice. The session never writes such a file.
    var inconsistency: String? {
        let maxCounter = WindowSnapshot.maxCounter
        guard (0...maxCounter).contains(generation), sessionVersion <= maxCounter else {
            return "generation \(generation) or sessionVersion \(sessionVersion) is outside 0...\(maxCounter)"
        }
        guard nextWindow <= WindowNumbering.highestStored + 1 else {
            return "nextWindow \(nextWindow) is above the numbers a saved state may name "
                + "(1...\(WindowNumbering.highestStored), WindowNumbering)"
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
        var closedNumbers: Set<WindowNumber> = []
        for entry in closed ?? [] {
            guard entry.window >= 1, entry.window < nextWindow, !numbers.contains(entry.window) else {
                return "closed window \(entry.window) is not in 1..<nextWindow (\(nextWindow)) or is open"
            }
            guard closedNumbers.insert(entry.window).inserted else { return "closed window \(entry.window) is listed twice" }
        }
        return nil
    }
}

extension StoredSession {
    /// The snapshot file's bytes, exactly as `JSONEncoder` (`[.sortedKeys, .withoutEscapingSlashes]`) writes
    /// them (tests compare both), built directly: a compaction writes the whole session, and `JSONEncoder`
    /// spends about 100 ns per byte. Models the direct writer does not cover, and non-ASCII text, go through
    /// `encoder`.
    func json() throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + windows.reduce(0) { $0 + $1.snapshot.models.count * 160 })
        // Sorted keys: applicationID, closed, format, formatVersion, generation, manifest, nextWindow, sessionVersion,
        // sessions, windows.
        var object = DirectJSON.Object(&out)
        object.key("applicationID", &out)
        guard DirectJSON.appendString(applicationID, to: &out) else { return try JSONOutput.encode(self) }
        if let closed {
            // The recently closed windows: at most a few, written by the encoder (the same bytes wherever it sits).
            object.key("closed", &out)
            out.append(contentsOf: try JSONOutput.encode(closed))
        }
        object.key("format", &out)
        guard DirectJSON.appendString(format, to: &out) else { return try JSONOutput.encode(self) }
        object.integer("formatVersion", formatVersion, &out)
        object.integer("generation", generation, &out)
        if let manifest {
            object.key("manifest", &out)
            guard DirectJSON.appendString(manifest, to: &out) else { return try JSONOutput.encode(self) }
        }
        object.integer("nextWindow", nextWindow, &out)
        object.integer("sessionVersion", sessionVersion, &out)
        if let sessions {
            // The named sessions: a few, written by the encoder (the same bytes wherever it sits).
            object.key("sessions", &out)
            out.append(contentsOf: try JSONOutput.encode(sessions))
        }
        if let stats {
            // The statistics: a few tallies, written by the encoder.
            object.key("stats", &out)
            out.append(contentsOf: try JSONOutput.encode(stats))
        }
        object.key("windows", &out)
        var array = DirectJSON.Array(&out)
        for window in windows {
            array.element(&out)
            guard try window.appendJSON(to: &out) else { return try JSONOutput.encode(self) }
        }
        array.close(&out)
        object.close(&out)
        return out
    }
}

extension StoredWindow {
    /// Sorted keys: closeOnExitOwner, group, history, lastActivity, number, pendingCommands, pendingDeepLink, policy,
    /// scene, snapshot; `false` for
    /// non-ASCII text.
    func appendJSON(to out: inout [UInt8]) throws -> Bool {
        var object = DirectJSON.Object(&out)
        if let closeOnExitOwner {
            object.key("closeOnExitOwner", &out)
            guard DirectJSON.appendString(closeOnExitOwner, to: &out) else { return false }
        }
        if let group {
            object.key("group", &out)
            guard DirectJSON.appendString(group, to: &out) else { return false }
        }
        if let history {
            object.key("history", &out)
            guard try history.appendJSON(to: &out) else { return false }
        }
        object.integer("lastActivity", lastActivity, &out)
        object.integer("number", number, &out)
        if let pendingCommands {
            object.key("pendingCommands", &out)
            guard try pendingCommands.appendJSON(to: &out) else { return false }
        }
        if let pendingDeepLink {
            object.key("pendingDeepLink", &out)
            guard DirectJSON.appendString(pendingDeepLink, to: &out) else { return false }
        }
        if let policy {
            object.key("policy", &out)
            out.append(contentsOf: policy.json.utf8)
        }
        object.key("scene", &out)
        guard DirectJSON.appendString(scene, to: &out) else { return false }
        object.key("snapshot", &out)
        try snapshot.appendJSON(to: &out)
        object.close(&out)
        return true
    }
}

/// One window in the snapshot file.
struct StoredWindow: Codable, Hashable {
    var number: WindowNumber
    var scene: String
    var lastActivity: UInt64
    var closeOnExitOwner: String?
    var pendingDeepLink: String?
    /// A pending navigation of commands (Docs/guards.md); a waiting deep link is `pendingDeepLink`.
    var pendingCommands: StoredPendingCommands?
    var snapshot: WindowSnapshot
    /// The window's history; absent in files written before histories were kept (it then starts at `snapshot`).
    var history: StoredHistory? = nil
    /// Its window group (Session1 `GroupWindows`); absent when none.
    var group: String? = nil
    /// Who may change it (``WindowPolicy``); absent when anyone may.
    var policy: WindowPolicy? = nil
}

/// A window's pending commands in the snapshot file: `{"batch":[…],"screen":"account","state":"main"}`.
struct StoredPendingCommands: Codable, Hashable {
    var batch: [BatchCommand]
    var screen: String
    var state: String

    init?(_ pending: PendingNavigation?) {
        guard case .commands(let batch, let screen, let state) = pending else { return nil }
        self.batch = batch
        self.screen = screen
        self.state = state
    }

    var pending: PendingNavigation { .commands(batch, screen: screen, state: state) }

    /// Sorted keys: batch, screen, state; `false` for text the direct writer leaves to `JSONEncoder`.
    func appendJSON(to out: inout [UInt8]) throws -> Bool {
        var object = DirectJSON.Object(&out)
        object.key("batch", &out)
        out.append(contentsOf: try JSONOutput.encode(batch))
        object.key("screen", &out)
        guard DirectJSON.appendString(screen, to: &out) else { return false }
        object.key("state", &out)
        guard DirectJSON.appendString(state, to: &out) else { return false }
        object.close(&out)
        return true
    }
}

/// What the store found on disk, ready for the session to replay.
struct LoadedState {
    var snapshot: StoredSession?
    var entries: [JournalEntry]
    /// Each entry's `time` (wall-clock milliseconds), `nil` where its line has none.
    var times: [Int64?] = []
    /// The smallest window number never seen in any readable state (used after a corrupt start too).
    var nextWindow: WindowNumber
}

extension StoredHistory {
    /// Sorted keys: base, dropped (when any), entries; the base written directly (it is a whole window), and each entry too, its `redo`
    /// as the journal writes that line (a batch by the direct batch writer). Every snapshot file carries up to 127
    /// entries per window, so `JSONEncoder` here cost ≈ 40 000 instructions per change at the benchmark's rate of
    /// compaction.
    func appendJSON(to out: inout [UInt8]) throws -> Bool {
        var object = DirectJSON.Object(&out)
        object.key("base", &out)
        try base.appendJSON(to: &out)
        if let dropped, !dropped.isEmpty {
            object.key("dropped", &out)
            out.append(contentsOf: try JSONOutput.encode(dropped))
        }
        object.key("entries", &out)
        out.append(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard try entry.appendJSON(to: &out) else { return false }
        }
        out.append(UInt8(ascii: "]"))
        object.close(&out)
        return true
    }
}

extension StoredHistory.Entry {
    /// Sorted keys: activeScreen, cause (when stored), dropped (when any), redo, time (when known).
    func appendJSON(to out: inout [UInt8]) throws -> Bool {
        var object = DirectJSON.Object(&out)
        object.key("activeScreen", &out)
        guard DirectJSON.appendString(activeScreen, to: &out) else { return false }
        if let cause {
            object.key("cause", &out)
            out.append(contentsOf: try JSONOutput.encode(cause))
        }
        if let dropped, !dropped.isEmpty {
            object.key("dropped", &out)
            out.append(contentsOf: try JSONOutput.encode(dropped))
        }
        object.key("redo", &out)
        if case .batch(let window, let batch, let version) = redo, let encoded = SessionStore.encodeBatch(batch) {
            out.append(contentsOf: JournalLine.batch(window: window, version: version, encodedBatch: encoded))
        } else {
            out.append(contentsOf: try JSONOutput.encode(redo))
        }
        if let time {
            object.integer("time", Int(time), &out)
        }
        object.close(&out)
        return true
    }
}
