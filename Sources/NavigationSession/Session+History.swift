import Foundation
import Logging
import NavigationCore

/// Issue 34, part H: each window's recent changes (Window1 `GetHistory`), its state after any of them (`GetStateAt`)
/// and its trace (`ExportTrace`). Docs/persistence.md, "History".
extension Session {
    /// One change in a window's history (Window1 `GetHistory`).
    public struct HistoryItem: Hashable, Sendable {
        /// The window version the change reached.
        public var version: Int
        /// Wall-clock milliseconds since the Unix epoch; `nil` for changes read back from an older journal.
        public var time: Int64?
        /// The cause, as `Changed`'s `cause_json` carries it (without `resumed`/`redirected`).
        public var cause: ChangeCause
        /// The active model's screen right after the change.
        public var activeScreen: String
    }

    /// The newest ``SessionLimits/historyLength`` changes of a window, oldest first.
    /// - Throws: ``SessionError/unknownWindow(_:)``.
    public func history(window number: WindowNumber) throws(SessionError) -> [HistoryItem] {
        let history = try window(number).history
        return history.entries.suffix(limits.historyLength).map {
            HistoryItem(version: $0.version, time: $0.time, cause: $0.cause, activeScreen: $0.activeScreen)
        }
    }

    /// `GetHistory`'s JSON: `[{"version":3,"time":1764210000000,"cause":{"commands":[…]},"activeScreen":"detail"}…]`.
    public func historyJSON(window number: WindowNumber) throws(SessionError) -> String {
        var out = "["
        for (index, item) in try history(window: number).enumerated() {
            if index > 0 { out += "," }
            out += #"{"version":\#(item.version),"time":\#(item.time.map(String.init) ?? "null"),"cause":"#
            out += JSONOutput.string(item.cause)
            out += #","activeScreen":"# + JSONOutput.string(item.activeScreen) + "}"
        }
        return out + "]"
    }

    /// The versions whose state ``state(window:at:)`` can rebuild: from the state before the oldest kept change to
    /// the window's version.
    public func keptVersions(window number: WindowNumber) throws(SessionError) -> ClosedRange<Int> {
        let window = try window(number)
        return window.history.baseVersion...window.version
    }

    /// The window's state right after `version` (read-only: the window does not change): the current snapshot for
    /// the current version, else the kept base with the kept changes redone on a scratch window, O(graph + changes
    /// redone).
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/versionNotKept(window:version:oldest:newest:)``.
    public func state(window number: WindowNumber, at version: Int) throws(SessionError) -> WindowSnapshot {
        let window = try window(number)
        if version == window.version { return window.graph.snapshot() }
        let kept = window.history.baseVersion...window.version
        guard kept.contains(version) else {
            throw .versionNotKept(window: number, version: version, oldest: kept.lowerBound, newest: kept.upperBound)
        }
        var snapshot = window.history.base
        try replayHistory(of: window, through: version) { _, graph in snapshot = graph.snapshot() }
        return snapshot
    }

    /// Redoes the kept changes up to `version` on a scratch window built from the base, calling `body` after the
    /// last one with its event (and after every one when `each` is set).
    private func replayHistory(
        of window: SessionWindow, through version: Int, each: Bool = false,
        _ body: (ChangeEvent?, NavigationWindow) throws(SessionError) -> Void
    ) throws(SessionError) {
        let scratch: NavigationWindow
        do {
            scratch = try NavigationWindow(
                snapshot: window.history.base, configuration: windowConfiguration(scene: window.scene), logger: logger)
        } catch {
            throw .storageFailed("window \(window.number): the history's base state does not load: \(error.message)")
        }
        if each { try body(nil, scratch) }
        for entry in window.history.entries where entry.version <= version {
            let event: ChangeEvent
            do {
                event = try Self.redo(entry.redo, on: scratch)
            } catch {
                throw .storageFailed("window \(window.number): version \(entry.version) does not replay: \(error.message)")
            }
            guard event.version == entry.version else {
                throw .storageFailed(
                    "window \(window.number): replaying reached version \(event.version), recorded \(entry.version)")
            }
            if each || entry.version == version { try body(event, scratch) }
        }
    }

    /// Redoes one journaled change on a graph, as a restore does (entry conditions are not asked again).
    static func redo(_ entry: JournalEntry, on graph: NavigationWindow) throws(NavigationError) -> ChangeEvent {
        defer {
            _ = graph.drainEffects()
            _ = graph.drainMessages()
        }
        switch entry {
        case .batch(_, let batch, _): return try graph.apply(batch, checkingEntry: false)
        case .report(_, let report, _): return try graph.report(report, checkingEntry: false)
        case .reapply(_, let alert, let action, let batch, let waiving, _):
            return try graph.reapply(closing: alert, action: action, batch: batch, waiving: Set(waiving))
        case .scheduledRan(_, let id, _): return try graph.runScheduled(id, checkingEntry: false)
        default: throw .invalidSnapshot("journal entry \(entry) changes no window version")
        }
    }

    // MARK: Recording

    /// Records a journaled change of a window (live, or read back from the journal with its line's `time`).
    /// O(1), except every ``SessionLimits/historyLength`` changes, when the oldest half is folded into the base.
    func recordHistory(_ entry: JournalEntry, cause: ChangeCause?, time: Int64?) {
        guard let version = entry.windowVersion, let window = windowsByNumber[entry.window],
            version > (window.history.entries.last?.version ?? window.history.baseVersion),
            let cause = cause ?? entry.cause
        else { return }
        window.history.entries.append(WindowHistory.Entry(
            version: version, time: time, cause: cause, activeScreen: window.activeScreen, redo: entry))
        let length = max(limits.historyLength, 1)
        if window.history.entries.count >= 2 * length { foldHistory(of: window, keeping: length) }
    }

    /// Starts a window's history anew at its current state (opened, or loaded whole with `SetState`).
    func restartHistory(of window: SessionWindow) {
        window.history = WindowHistory(base: window.graph.snapshot())
    }

    /// Folds all but the newest `keeping` entries into the base.
    private func foldHistory(of window: SessionWindow, keeping: Int) {
        let dropped = window.history.entries.count - keeping
        let last = window.history.entries[dropped - 1].version
        do throws(SessionError) {
            var base = window.history.base
            try replayHistory(of: window, through: last) { _, graph in base = graph.snapshot() }
            window.history.base = base
            window.history.entries.removeFirst(dropped)
        } catch {
            logger.error(
                "a window's history does not replay; it starts again at the current state",
                metadata: ["window": "\(window.number)", "error": "\(error.message)"])
            restartHistory(of: window)
        }
    }

    // MARK: Persisting

    /// The history as the snapshot file keeps it.
    func storedHistory(of window: SessionWindow) -> StoredHistory {
        StoredHistory(
            base: window.history.base,
            entries: window.history.entries.map {
                StoredHistory.Entry(
                    redo: $0.redo, activeScreen: $0.activeScreen, time: $0.time, cause: $0.redo.cause == nil ? $0.cause : nil)
            })
    }

    /// The history read back from the snapshot file; without one (an older file), it starts at the saved state.
    func restoredHistory(_ stored: StoredHistory?, snapshot: WindowSnapshot) -> WindowHistory {
        guard let stored, stored.base.version <= snapshot.version else { return WindowHistory(base: snapshot) }
        var history = WindowHistory(base: stored.base)
        var previous = stored.base.version
        for entry in stored.entries {
            guard let version = entry.redo.windowVersion, version > previous, version <= snapshot.version,
                let cause = entry.cause ?? entry.redo.cause
            else { return WindowHistory(base: snapshot) }
            previous = version
            history.entries.append(WindowHistory.Entry(
                version: version, time: entry.time, cause: cause, activeScreen: entry.activeScreen, redo: entry.redo))
        }
        // The history must reach the saved state, else the file is not one this session wrote.
        guard previous == snapshot.version else { return WindowHistory(base: snapshot) }
        return history
    }

    // MARK: Traces

    /// A window's trace (Window1 `ExportTrace`, Docs/persistence.md, "Traces"): the manifest's identity, how to open
    /// the window, its state before the oldest kept change, and each kept change with its version, time, cause,
    /// active screen, planned steps and the state after it. O(kept changes × graph).
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/limitsExceeded(_:)`` (above
    ///   ``SessionLimits/maxTraceBytes``).
    public func traceJSON(window number: WindowNumber) throws(SessionError) -> String {
        let window = try window(number)
        var out = #"{"format":"navsession-trace","formatVersion":1,"applicationID":"#
        out += JSONOutput.string(manifest.applicationID)
        out += #","window":\#(number),"scene":"# + JSONOutput.string(window.scene)
        out += #","params":"# + JSONOutput.string(window.history.base.models.first { $0.id == window.history.base.root }?.params ?? [:])
        var first = true
        let bound = limits.maxTraceBytes
        let entries = window.history.entries
        var index = 0
        try replayHistory(of: window, through: window.version, each: true) { (event, graph) throws(SessionError) in
            let state = (try? graph.snapshot().json()).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            guard let event else {
                out += #","initial":{"version":\#(graph.version),"state":"# + state + #"},"changes":["#
                return
            }
            let entry = entries[index]
            index += 1
            if !first { out += "," }
            first = false
            out += #"{"version":\#(event.version),"time":\#(entry.time.map(String.init) ?? "null"),"cause":"#
            out += JSONOutput.string(entry.cause)
            out += #","activeScreen":"# + JSONOutput.string(entry.activeScreen)
            out += #","steps":"# + NavigationStep.json(Self.rendererSteps(of: event, for: window, limits: limits))
            out += #","state":"# + state + "}"
            guard out.utf8.count <= bound else {
                throw .limitsExceeded("the trace of window \(number) is larger than \(bound) bytes")
            }
        }
        return out + "]}"
    }
}
