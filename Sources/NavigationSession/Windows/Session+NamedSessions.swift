#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavigationCore

/// A named session: windows saved together under a name, to be opened again together (Session1 `SaveSession`,
/// `ListSessions`, `OpenSession`, `DeleteSession`; a browser's saved sessions, Docs/desktop.md).
public struct NamedSession: Hashable, Sendable {
    /// One saved window: its scene, title and active screen when saved, and its whole graph.
    public struct Window: Hashable, Sendable, Codable {
        public var scene: String
        public var title: String
        public var activeScreen: String
        public var snapshot: WindowSnapshot
        /// Its window group when saved (it opens in that group again); `nil`: none.
        public var group: String? = nil
    }

    /// The name it was saved under (1–64 letters, digits, '-', '_', '.', ' ').
    public var name: String
    /// When it was saved: wall-clock milliseconds since the Unix epoch.
    public var savedAt: Int64
    /// The windows, in the order they were named.
    public var windows: [Window]
    /// The share (peer process) of the client that saved it, whose ``SessionLimits/maxClientNamedSessions`` it
    /// counts in; `nil` when saved by no client.
    public var savedBy: String?
    /// The bytes of the windows' snapshots as JSON (what ``SessionLimits/maxNamedSessionBytes`` bounds).
    var bytes: Int { windows.reduce(0) { $0 + ClosedWindow.bytes(of: $1.snapshot) } }
}

/// A named session as the journal and the snapshot file keep it:
/// `{"name":"work","savedAt":1764211200000,"windows":[{"activeScreen":"detail","scene":"main","snapshot":{…},"title":"Detail"}]}`.
struct StoredNamedSession: Codable, Hashable {
    var name: String
    var savedAt: Int64
    var windows: [NamedSession.Window]
    var savedBy: String?

    init(_ session: NamedSession) {
        name = session.name
        savedAt = session.savedAt
        windows = session.windows
        savedBy = session.savedBy
    }

    var named: NamedSession { NamedSession(name: name, savedAt: savedAt, windows: windows, savedBy: savedBy) }
}

extension Session {
    /// The saved sessions, by name.
    public var namedSessions: [NamedSession] { savedSessions }

    /// Saves `windows` (all open windows when empty) under `name`, replacing a session saved under it before
    /// (Session1 `SaveSession`). Journaled: it survives a restart.
    /// - Throws: ``SessionError/invalidArguments(_:)`` (a name outside 1–64 of letters, digits, '-', '_', '.', ' ';
    ///   no window open), ``SessionError/unknownWindow(_:)``, ``SessionError/limitsExceeded(_:)`` (more than
    ///   ``SessionLimits/maxNamedSessions`` sessions or ``SessionLimits/maxNamedSessionBytes`` bytes, or more than
    ///   ``SessionLimits/maxClientNamedSessions`` saved by `client`'s process), ``SessionError/storageFailed(_:)``.
    public func saveSession(_ name: String, windows numbers: [WindowNumber], client: String? = nil) throws(SessionError) {
        try Self.checkSessionName(name)
        let chosen = numbers.isEmpty ? order : numbers
        guard !chosen.isEmpty else { throw .invalidArguments("no window is open to save") }
        guard Set(chosen).count == chosen.count else { throw .invalidArguments("a window is named twice") }
        var saved: [NamedSession.Window] = []
        for number in chosen {
            let window = try window(number)
            saved.append(NamedSession.Window(
                scene: window.scene, title: (try? title(of: number)) ?? "", activeScreen: window.activeScreen,
                snapshot: window.graph.snapshot().released(), group: window.group))
        }
        let share = client.map(share(of:))
        let session = NamedSession(name: name, savedAt: clock.wallMilliseconds(), windows: saved, savedBy: share)
        var sessions = savedSessions.filter { $0.name != name }
        if let share, sessions.count(where: { $0.savedBy == share }) >= limits.maxClientNamedSessions {
            throw .limitsExceeded(
                "a client may have saved at most \(limits.maxClientNamedSessions) named sessions (per-client share)")
        }
        sessions.append(session)
        guard sessions.count <= limits.maxNamedSessions else {
            throw .limitsExceeded("at most \(limits.maxNamedSessions) named sessions; delete one first")
        }
        let bytes = sessions.reduce(0) { $0 + $1.bytes }
        guard bytes <= limits.maxNamedSessionBytes else {
            throw .limitsExceeded(
                "the named sessions would hold \(bytes) bytes; at most \(limits.maxNamedSessionBytes)")
        }
        // In memory first: the write may compact, and the snapshot it then writes must hold this session.
        let before = savedSessions
        savedSessions = sessions.sorted { $0.name < $1.name }
        do {
            try persist(.saveSession(StoredNamedSession(session)))
        } catch {
            savedSessions = before
            throw error
        }
    }

    /// `ListSessions`' JSON: `[{"name":"work","savedAt":…,"windows":[{"scene":"main","title":"Detail",
    /// "activeScreen":"detail"}]}]`, by name (the snapshots are not listed).
    public func namedSessionsJSON() -> String {
        var out = "["
        for (index, session) in savedSessions.enumerated() {
            if index > 0 { out += "," }
            out += #"{"name":"# + JSONOutput.string(session.name) + #","savedAt":\#(session.savedAt),"windows":["#
            for (number, window) in session.windows.enumerated() {
                if number > 0 { out += "," }
                out += #"{"activeScreen":"# + JSONOutput.string(window.activeScreen) + #","scene":"#
                    + JSONOutput.string(window.scene) + #","title":"# + JSONOutput.string(window.title) + "}"
            }
            out += "]}"
        }
        return out + "]"
    }

    /// Opens the windows saved under `name`, each a new window with the navigation it had when saved (the same
    /// models and ids, renderer state, split state, appearance; scheduled batches follow their `overdue` rule),
    /// in the saved order (Session1 `OpenSession`). All or none: a scene the manifest no longer declares, a
    /// single-instance scene with a window open, or the window limits refuse the whole session.
    /// - Returns: the outcome, ``SessionOutcome/window`` the first opened; the opened windows in its events.
    /// - Throws: ``SessionError/unknownSession(_:)``, ``SessionError/invalidArguments(_:)``,
    ///   ``SessionError/unknownScene(_:suggestion:)``, ``SessionError/limitsExceeded(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func openSession(_ name: String, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            guard let session = savedSessions.first(where: { $0.name == name }) else { throw .unknownSession(name) }
            // Checked before anything opens: all or none.
            var singles: Set<String> = []
            for saved in session.windows {
                guard let scene = manifest.scene(saved.scene) else { throw .unknownScene(saved.scene, suggestion: nil) }
                guard scene.instances == .single else { continue }
                if let open = windows.first(where: { $0.scene == saved.scene }) {
                    throw .invalidArguments(
                        "scene '\(saved.scene)' has one window at a time and window \(open.number) is open; close it "
                            + "before opening session '\(name)'")
                }
                guard singles.insert(saved.scene).inserted else {
                    throw .invalidArguments("session '\(name)' holds two windows of the single-instance scene '\(saved.scene)'")
                }
            }
            guard windows.count + session.windows.count <= limits.maxWindows else {
                throw .limitsExceeded("opening session '\(name)' would make \(windows.count + session.windows.count) windows")
            }
            var events: [SessionEvent] = []
            var first: WindowNumber?
            var groups: [String: [WindowNumber]] = [:]
            for saved in session.windows {
                // Released again for a session saved before saving released it; the journal holds what opened.
                let snapshot = saved.snapshot.released()
                let graph = try makeGraph(snapshot: snapshot, scene: saved.scene)
                let window = try register(graph, scene: saved.scene) { number, version in
                    .openSnapshot(window: number, scene: saved.scene, snapshot: snapshot, sessionVersion: version)
                }
                applyOverdueRules(to: window)
                first = first ?? window.number
                events.append(.windowOpened(window.number, scene: saved.scene))
                if let group = saved.group { groups[group, default: []].append(window.number) }
            }
            // Saved groups open as groups again (a group of that name open now gives its windows up to them).
            for (group, numbers) in groups.sorted(by: { $0.key < $1.key }) { try setGroup(group, windows: numbers, events: &events) }
            return outcome(window: first, events: events)
        }
    }

    /// Deletes the session saved under `name` (Session1 `DeleteSession`). Journaled.
    /// - Throws: ``SessionError/unknownSession(_:)``, ``SessionError/storageFailed(_:)``.
    public func deleteSession(_ name: String) throws(SessionError) {
        guard savedSessions.contains(where: { $0.name == name }) else { throw .unknownSession(name) }
        // In memory first, as for a save: a compaction's snapshot must not hold it.
        let before = savedSessions
        savedSessions.removeAll { $0.name == name }
        do {
            try persist(.deleteSession(name: name))
        } catch {
            savedSessions = before
            throw error
        }
    }

    /// A session name: 1–64 of letters, digits, '-', '_', '.', ' ' (shown in menus; no path or markup).
    static func checkSessionName(_ name: String, what: String = "session name") throws(SessionError) {
        let allowed = name.unicodeScalars.allSatisfy {
            ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_. ".unicodeScalars.contains($0))
                && $0.value >= 0x20
        }
        guard (1...64).contains(name.count), allowed else {
            throw .invalidArguments("'\(name.prefix(80))' is not a \(what) (1-64 letters, digits, '-', '_', '.', ' ')")
        }
    }

    /// Replays a journaled save or delete, or restores the snapshot file's list.
    func replaySaved(_ stored: StoredNamedSession) {
        savedSessions.removeAll { $0.name == stored.name }
        savedSessions.append(stored.named)
        savedSessions.sort { $0.name < $1.name }
    }
}
