#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore

/// A recently closed window, as Session1 `ListClosedWindows` shows it and `ReopenWindow` brings
/// it back: its last state before it closed (the graph before its models finished), scene, title, active screen,
/// the number it had and when it closed.
public struct ClosedWindow: Hashable, Sendable {
    /// The number the window had; never reused, so it also names the entry (``id``).
    public let number: WindowNumber
    /// The scene it was opened from.
    public let scene: String
    /// Its Window1 `Title` when it closed.
    public internal(set) var title: String
    /// Its Window1 `ActiveScreen` when it closed.
    public internal(set) var activeScreen: String
    /// When it closed: wall-clock milliseconds since the Unix epoch.
    public let closedAt: Int64
    /// The group it was in when it closed (it closed with the group's other windows, and reopens with them).
    public var group: String?
    /// Its graph just before it closed (scheduled batches, split state, appearance and all).
    public internal(set) var snapshot: WindowSnapshot
    /// The bytes of its snapshot's JSON (the same measure live and after a restart, so a replayed journal keeps the
    /// same entries): what ``SessionLimits/maxClosedWindowBytes`` bounds.
    public internal(set) var bytes = 0

    /// The entry's id in `ListClosedWindows` and `ReopenWindow`: the number the window had, in decimal (`"3"`).
    public var id: String { String(number) }

    static func bytes(of snapshot: WindowSnapshot) -> Int { (try? JSONOutput.encode(snapshot).count) ?? 0 }
}

/// One entry of `ListClosedWindows` and of the snapshot file's `closed` list:
/// `{"activeScreen":"detail","closedAt":1764211200000,"id":"3","scene":"main","snapshot":{…},"title":"Detail",
/// "window":3}` (`id` is written for readers; the number is `window`).
struct StoredClosedWindow: Codable, Hashable {
    var window: WindowNumber
    var scene: String
    var title: String
    var activeScreen: String
    var closedAt: Int64
    var snapshot: WindowSnapshot
    var group: String?

    enum CodingKeys: String, CodingKey {
        case window, scene, title, activeScreen, closedAt, snapshot, id, group
    }

    init(_ closed: ClosedWindow) {
        window = closed.number
        scene = closed.scene
        title = closed.title
        activeScreen = closed.activeScreen
        closedAt = closed.closedAt
        snapshot = closed.snapshot
        group = closed.group
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        window = try c.decode(WindowNumber.self, forKey: .window)
        scene = try c.decode(String.self, forKey: .scene)
        title = try c.decode(String.self, forKey: .title)
        activeScreen = try c.decode(String.self, forKey: .activeScreen)
        closedAt = try c.decode(Int64.self, forKey: .closedAt)
        snapshot = try c.decode(WindowSnapshot.self, forKey: .snapshot)
        group = try c.decodeIfPresent(String.self, forKey: .group)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(activeScreen, forKey: .activeScreen)
        try c.encode(closedAt, forKey: .closedAt)
        try c.encodeIfPresent(group, forKey: .group)
        try c.encode(String(window), forKey: .id)
        try c.encode(scene, forKey: .scene)
        try c.encode(snapshot, forKey: .snapshot)
        try c.encode(title, forKey: .title)
        try c.encode(window, forKey: .window)
    }

    var closed: ClosedWindow {
        ClosedWindow(
            number: window, scene: scene, title: title, activeScreen: activeScreen, closedAt: closedAt, group: group,
            snapshot: snapshot, bytes: ClosedWindow.bytes(of: snapshot))
    }
}

extension Session {
    /// The recently closed windows, most recent first, at most ``SessionLimits/maxClosedWindows``
    /// (Session1 `ListClosedWindows`).
    public var closedWindows: [ClosedWindow] { recentlyClosed }

    /// `ListClosedWindows`' JSON: an array, most recent first, of
    /// `{"activeScreen","closedAt","id","scene","snapshot","title","window"}`.
    public func closedWindowsJSON() -> String {
        JSONOutput.string(recentlyClosed.map(StoredClosedWindow.init), fallback: "[]")
    }

    /// Reopens a recently closed window (Session1 `ReopenWindow`, Application action `reopen-window`) with the
    /// navigation it had when it closed — the same graph, model ids, scheduled batches (overdue ones follow their
    /// rule as after a restart), split state and appearance — under a **new** window number, and removes it from
    /// the list. Not restored: its close-on-exit tie (the client may be gone) and its pending navigation.
    ///
    /// It opens like any window: the window limits, the acting client's window and content shares, and the
    /// remaining window numbers apply, and a scene declaring `"instances": "single"` reopens only while no window
    /// of it is open.
    /// - Parameter id: an id from ``closedWindows``; `nil` reopens the most recently closed window.
    /// - Throws: ``SessionError/unknownClosedWindow(_:)``, ``SessionError/limitsExceeded(_:)``,
    ///   ``SessionError/invalidArguments(_:)`` (its single-instance scene is open),
    ///   ``SessionError/unknownScene(_:suggestion:)`` (the manifest no longer declares it),
    ///   ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func reopenWindow(_ id: String? = nil, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            let index: Int? = if let id { recentlyClosed.firstIndex { $0.id == id } } else { recentlyClosed.indices.first }
            guard let index else { throw .unknownClosedWindow(id ?? "") }
            // A window closed with its group reopens with it (the group's entries closed at the same moment).
            let closed = recentlyClosed[index]
            if let group = closed.group {
                let together = recentlyClosed.filter { $0.group == group && $0.closedAt == closed.closedAt && $0.number != closed.number }
                if !together.isEmpty { return try reopenGroup(closed, together, group: group) }
            }
            return try reopenOne(closed)
        }
    }

    /// Reopens `first` and `others`, closed together with `group`, as that group again (all or none are checked
    /// before any opens).
    private func reopenGroup(_ first: ClosedWindow, _ others: [ClosedWindow], group: String) throws(SessionError) -> SessionOutcome {
        let entries = [first] + others
        var singles: Set<String> = []
        for entry in entries {
            guard let scene = manifest.scene(entry.scene) else { throw .unknownScene(entry.scene, suggestion: nil) }
            guard scene.instances == .single else { continue }
            if windows.contains(where: { $0.scene == entry.scene }) || !singles.insert(entry.scene).inserted {
                throw .invalidArguments(
                    "scene '\(entry.scene)' has one window at a time; window \(entry.number)'s group '\(group)' cannot reopen")
            }
        }
        guard windows.count + entries.count <= limits.maxWindows else {
            throw .limitsExceeded("reopening group '\(group)' would make \(windows.count + entries.count) windows")
        }
        var events: [SessionEvent] = []
        var numbers: [WindowNumber] = []
        for entry in entries {
            let outcome = try reopenOne(entry)
            events += outcome.events
            if let number = outcome.window { numbers.append(number) }
        }
        try setGroup(group, windows: numbers, events: &events)
        return outcome(window: numbers.first, events: events)
    }

    private func reopenOne(_ closed: ClosedWindow) throws(SessionError) -> SessionOutcome {
        guard let index = recentlyClosed.firstIndex(where: { $0.number == closed.number }) else {
            throw .unknownClosedWindow(closed.id)
        }
        guard let scene = manifest.scene(closed.scene) else {
            throw .unknownScene(closed.scene, suggestion: nil)
        }
        if scene.instances == .single, let open = windows.first(where: { $0.scene == closed.scene }) {
            throw .invalidArguments(
                "scene '\(closed.scene)' has one window at a time (\"instances\": \"single\") and window \(open.number) "
                    + "is open; close it before reopening window \(closed.number)")
        }
        // Released again for an entry written before closing released it (the replay does the same).
        let graph = try makeGraph(snapshot: closed.snapshot.released(), scene: closed.scene)
        // Off the list first: the write may compact, and the snapshot it then writes must not list it as closed too.
        recentlyClosed.remove(at: index)
        let window: SessionWindow
        do {
            window = try register(graph, scene: closed.scene) { number, version in
                .reopen(window: number, closed: closed.number, scene: closed.scene, sessionVersion: version)
            }
        } catch {
            recentlyClosed.insert(closed, at: index)
            throw error
        }
        applyOverdueRules(to: window)
        return outcome(window: window.number, events: [.windowOpened(window.number, scene: closed.scene)])
    }

    /// The closing window's entry, taken before its models finish; `nil` when nothing is remembered.
    func closedEntry(of window: SessionWindow, closedAt: Int64) -> ClosedWindow? {
        guard limits.maxClosedWindows > 0, !window.graph.isClosed else { return nil }
        // Without its clients' authority (marks, batches a client scheduled): the window reopens without them.
        let snapshot = window.graph.snapshot().released()
        return ClosedWindow(
            number: window.number, scene: window.scene, title: (try? title(of: window.number)) ?? "",
            activeScreen: window.activeScreen, closedAt: closedAt, group: window.group, snapshot: snapshot,
            bytes: ClosedWindow.bytes(of: snapshot))
    }

    /// Puts `entry` first in the list, dropping the oldest beyond ``SessionLimits/maxClosedWindows`` and
    /// ``SessionLimits/maxClosedWindowBytes`` (an entry larger than the whole bound is not remembered). O(bound).
    func remember(_ entry: ClosedWindow) {
        guard entry.bytes <= limits.maxClosedWindowBytes else {
            logger.notice(
                "a closed window is too large to remember", metadata: ["window": "\(entry.number)", "bytes": "\(entry.bytes)"])
            return
        }
        recentlyClosed.insert(entry, at: 0)
        if recentlyClosed.count > limits.maxClosedWindows {
            recentlyClosed.removeLast(recentlyClosed.count - limits.maxClosedWindows)
        }
        var bytes = recentlyClosed.reduce(0) { $0 + $1.bytes }
        while bytes > limits.maxClosedWindowBytes, let oldest = recentlyClosed.last {
            bytes -= oldest.bytes
            recentlyClosed.removeLast()
        }
    }

    /// Restores the snapshot file's list: entries of scenes the manifest no longer declares are dropped (logged),
    /// and the list is cut to the bound.
    func restoreClosed(_ stored: [StoredClosedWindow]) {
        recentlyClosed = []
        for entry in stored {
            guard manifest.scene(entry.scene) != nil else {
                logger.warning(
                    "dropping a recently closed window of a scene the manifest no longer declares",
                    metadata: ["window": "\(entry.window)", "scene": "\(entry.scene)"])
                continue
            }
            guard recentlyClosed.count < limits.maxClosedWindows else { break }
            let closed = entry.closed
            guard recentlyClosed.reduce(0, { $0 + $1.bytes }) + closed.bytes <= limits.maxClosedWindowBytes else { break }
            recentlyClosed.append(closed)
        }
    }

    /// A graph for a reopened window, checked like a new one (``makeGraph(_:scene:)``).
    func makeGraph(snapshot: WindowSnapshot, scene: String) throws(SessionError) -> NavigationWindow {
        try checkedGraph { () throws(NavigationError) in
            try NavigationWindow(snapshot: snapshot, configuration: windowConfiguration(scene: scene), logger: logger)
        }
    }
}
