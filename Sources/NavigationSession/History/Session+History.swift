#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore

/// Each window's recent changes (Window1 `GetHistory`), its state after any of them (`GetStateAt`)
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

    /// The newest ``SessionLimits/historyLength`` navigation changes of a window, oldest first: a renderer's own
    /// state writes (``WindowHistory/Entry/navigates``) are not listed (their versions are gaps; `GetStateAt` still
    /// reaches them). O(kept entries).
    /// - Throws: ``SessionError/unknownWindow(_:)``.
    public func history(window number: WindowNumber) throws(SessionError) -> [HistoryItem] {
        let entries = try window(number).history.entries
        var items: [HistoryItem] = []
        // From the newest: the kept list can be much longer than the listed one (``historySpan(of:)``).
        for entry in entries.reversed() where entry.navigates {
            guard items.count < limits.historyLength else { break }
            items.append(HistoryItem(version: entry.version, time: entry.time, cause: entry.cause, activeScreen: entry.activeScreen))
        }
        return items.reversed()
    }

    /// `GetHistory`'s JSON: `[{"version":3,"time":1764210000000,"cause":{"commands":[…]},"activeScreen":"detail"}…]`.
    public func historyJSON(window number: WindowNumber) throws(SessionError) -> String {
        var out = "["
        for (index, item) in try history(window: number).enumerated() {
            if index > 0 { out += "," }
            out += #"{"version":\#(item.version),"time":\#(item.time.map(String.init) ?? "null"),"cause":"#
            out += Self.causeJSON(item.cause)
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
        switch try stateReplay(window: number, at: version) {
        case .current(let snapshot): snapshot
        case .replay(let replay): try replay.state(at: version)
        }
    }

    /// What ``state(window:at:)`` needs, taken under the session's lock; the replay itself can run anywhere.
    public enum StateAt: Sendable {
        case current(WindowSnapshot)
        case replay(HistoryReplay)
    }

    /// The current snapshot when `version` is the window's, else the replay to run (checked against the kept range).
    public func stateReplay(window number: WindowNumber, at version: Int) throws(SessionError) -> StateAt {
        let window = try window(number)
        if version == window.version { return .current(window.graph.snapshot()) }
        let kept = window.history.baseVersion...window.version
        guard kept.contains(version) else {
            throw .versionNotKept(window: number, version: version, oldest: kept.lowerBound, newest: kept.upperBound)
        }
        return .replay(try historyReplay(window: number))
    }

    /// A window's kept history, detached from the session (values only): replaying it takes no lock.
    public func historyReplay(window number: WindowNumber) throws(SessionError) -> HistoryReplay {
        let window = try window(number)
        return HistoryReplay(
            number: number, scene: window.scene, applicationID: manifest.applicationID, history: window.history,
            configuration: windowConfiguration(scene: window.scene), capabilities: window.capabilities, limits: limits,
            logger: logger)
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
        case .restore(_, let cause, let snapshot, _): return try graph.restore(snapshot, cause: cause)
        default: throw .invalidSnapshot("journal entry \(entry) changes no window version")
        }
    }

    // MARK: Recording

    /// How many entries (renderer-state writes included) a window keeps per navigation entry at most: the count bound
    /// of the whole list, `historyEntriesPerNavigation × 2 × historyLength`.
    static let historyEntriesPerNavigation = 4

    /// Records a journaled change of a window (live, or read back from the journal with its line's `time`).
    /// O(1), except every ``SessionLimits/historyLength`` changes, when the oldest half is folded into the base,
    /// and when the entries hold more than ``SessionLimits/maxHistoryBytes``, when the oldest are folded until they
    /// hold half of it (so a window of large changes folds once per half of the bound, not at every change).
    /// - Parameter encodedBatch: a batch entry's JSON when the caller already has it (its size is the entry's).
    func recordHistory(_ entry: JournalEntry, cause: ChangeCause?, time: Int64?, encodedBatch: [UInt8]? = nil) {
        guard let version = entry.windowVersion, let window = windowsByNumber[entry.window],
            version > (window.history.entries.last?.version ?? window.history.baseVersion),
            let cause = cause ?? entry.cause
        else { return }
        let added = WindowHistory.Entry(
            version: version, time: time, cause: cause, activeScreen: window.activeScreen, redo: entry,
            bytes: Self.historyBytes(of: entry, encodedBatch: encodedBatch))
        window.history.append(added)
        if windowsByNumber[window.number] === window { historyBytes += added.bytes }
        chargeHistory(added.bytes)
        // The bound counts navigation entries: a renderer's state writes ride along (bounded below) and never push
        // navigations out. The checkpoint is the state after the `length`th navigation; at twice that, everything
        // up to it folds into the base (O(1) amortised, no replay).
        let span = historySpan(of: window)
        if added.navigates, window.history.navigations == span {
            window.history.checkpoint = window.graph.snapshot()
        } else if added.navigates, window.history.navigations >= 2 * span,
            let checkpoint = window.history.checkpoint,
            let index = window.history.entries.firstIndex(where: { $0.version == checkpoint.version })
        {
            foldHistory(of: window, keeping: window.history.entries.count - index - 1)
        } else if window.history.navigations >= 2 * span
            || window.history.entries.count >= Self.historyEntriesPerNavigation * 2 * span
        {
            // No usable checkpoint (the history was loaded or folded by bytes): half of it, by a replay.
            foldHistory(of: window, keeping: window.history.entries.count / 2)
        }
        if window.history.bytes > limits.maxHistoryBytes { foldHistory(of: window, toBytes: limits.maxHistoryBytes / 2) }
        // The session's bound: this window's history first (its change grew it), then the largest, to half.
        if historyBytes > limits.maxSessionHistoryBytes {
            foldHistory(of: window, toBytes: window.history.bytes / 2)
            while historyBytes > limits.maxSessionHistoryBytes,
                let largest = windows.max(by: { $0.history.bytes < $1.history.bytes })
            {
                let before = largest.history.bytes
                foldHistory(of: largest, toBytes: before / 2)
                guard largest.history.bytes < before else { break }
            }
        }
    }

    /// How many navigations a window's history folds at once: ``SessionLimits/historyLength``, or a quarter of the
    /// window's models when that is more. A fold takes one snapshot of the window (O(models)), so folding at least
    /// `models / 4` navigations at a time keeps its share of each change constant (about ten thousand instructions
    /// at any depth) where folding every `historyLength` changes would grow with the window; the entries kept grow
    /// with the window's size (each about a change's JSON, far less than a model), and the byte bounds still hold.
    func historySpan(of window: SessionWindow) -> Int {
        max(limits.historyLength, 1, window.graph.modelCount / 4)
    }

    /// Folds the oldest entries of `window`'s history into its base until its entries hold at most `bytes`
    /// (the newest entry stays whatever its size).
    private func foldHistory(of window: SessionWindow, toBytes bytes: Int) {
        guard window.history.entries.count > 1 else { return }
        var kept = 0
        var held = 0
        for entry in window.history.entries.reversed() {
            guard kept == 0 || held + entry.bytes <= bytes else { break }
            held += entry.bytes
            kept += 1
        }
        if kept < window.history.entries.count { foldHistory(of: window, keeping: kept) }
    }

    /// About how many bytes a history entry holds: its batch's JSON (with a fixed part for the rest).
    static func historyBytes(of entry: JournalEntry, encodedBatch: [UInt8]?) -> Int {
        switch entry {
        case .batch(_, let batch, _): 128 + (encodedBatch?.count ?? SessionStore.encodeBatch(batch)?.count ?? 0)
        case .reapply(_, _, _, let batch, _, _): 128 + (SessionStore.encodeBatch(batch)?.count ?? 0)
        // An undo or redo keeps the whole state it restored: its size, not a fixed part (O(the window), as the
        // undo itself).
        case .restore(_, _, let snapshot, _): 128 + ClosedWindow.bytes(of: snapshot)
        default: 256
        }
    }

    /// Records that a scheduled batch of a window left without a change (failed at its deadline, overdue `drop`, its
    /// author left): the history's next entry drops it first when replayed. O(1).
    func recordScheduledDrop(window number: WindowNumber, id: String) {
        guard let window = windowsByNumber[number] else { return }
        window.history.pendingDrops.append(id)
    }

    /// Starts a window's history anew at its current state (opened, or loaded whole with `SetState`).
    func restartHistory(of window: SessionWindow) {
        if windowsByNumber[window.number] === window { historyBytes -= window.history.bytes }
        window.history = WindowHistory(base: window.graph.snapshot())
    }

    /// Folds all but the newest `keeping` entries into the base.
    private func foldHistory(of window: SessionWindow, keeping: Int) {
        let before = window.history.bytes
        defer {
            if windowsByNumber[window.number] === window { historyBytes += window.history.bytes - before }
        }
        let dropped = window.history.entries.count - keeping
        let last = window.history.entries[dropped - 1].version
        if let checkpoint = window.history.checkpoint, checkpoint.version == last {
            window.history.base = checkpoint
            window.history.dropOldest(dropped)
            window.history.checkpoint = window.graph.snapshot()
            return
        }
        do throws(SessionError) {
            window.history.base = try historyReplay(window: window.number).state(at: last)
            window.history.dropOldest(dropped)
            // The state after the newest entry: the next fold at twice the length starts from it, without a replay
            // (after a restart or a fold by bytes, the history would otherwise replay at every fold).
            window.history.checkpoint = window.graph.snapshot()
        } catch {
            logger.error(
                "a window's history does not replay; it starts again at the current state",
                metadata: ["window": "\(window.number)", "error": "\(error.message)"])
            // Not restartHistory(of:): the deferred line above counts the bytes this drops.
            window.history = WindowHistory(base: window.graph.snapshot())
        }
    }

    // MARK: Persisting

    /// The history as the snapshot file keeps it.
    func storedHistory(of window: SessionWindow) -> StoredHistory {
        StoredHistory(
            base: window.history.base,
            entries: window.history.entries.map {
                StoredHistory.Entry(
                    redo: $0.redo, activeScreen: $0.activeScreen, time: $0.time, cause: $0.redo.cause == nil ? $0.cause : nil,
                    dropped: $0.droppedBefore.isEmpty ? nil : $0.droppedBefore)
            },
            dropped: window.history.pendingDrops.isEmpty ? nil : window.history.pendingDrops)
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
            history.append(WindowHistory.Entry(
                version: version, time: entry.time, cause: cause, activeScreen: entry.activeScreen, redo: entry.redo,
                bytes: Self.historyBytes(of: entry.redo, encodedBatch: nil), droppedBefore: entry.dropped ?? []))
        }
        // The history must reach the saved state, else the file is not one this session wrote.
        guard previous == snapshot.version else { return WindowHistory(base: snapshot) }
        history.pendingDrops = stored.dropped ?? []
        return history
    }

    // MARK: Traces

    /// A window's trace (Window1 `ExportTrace`): ``HistoryReplay/traceJSON()`` of its kept history.
    public func traceJSON(window number: WindowNumber) throws(SessionError) -> String {
        try historyReplay(window: number).traceJSON()
    }
}

/// A window's kept history as values: its base state and the entries after it, with what it
/// takes to redo them. Taken under the session's lock, replayed anywhere (the daemon replays off the bus thread).
public struct HistoryReplay: Sendable {
    let number: WindowNumber
    let scene: String
    let applicationID: String
    let history: WindowHistory
    let configuration: WindowConfiguration
    let capabilities: RendererCapabilities
    let limits: SessionLimits
    let logger: Logger

    /// The state right after `version`, which must be in `base…last entry`.
    public func state(at version: Int) throws(SessionError) -> WindowSnapshot {
        var snapshot = history.base
        try replay(through: version) { _, graph in snapshot = graph.snapshot() }
        return snapshot
    }

    /// Redoes the kept changes up to `version` on a scratch window built from the base, calling `body` after the
    /// last one with its event (and, with `each`, first with `nil` for the base and after every change).
    func replay(
        through version: Int, each: Bool = false,
        _ body: (ChangeEvent?, NavigationWindow) throws(SessionError) -> Void
    ) throws(SessionError) {
        let scratch: NavigationWindow
        do {
            scratch = try NavigationWindow(snapshot: history.base, configuration: configuration, logger: logger)
        } catch {
            throw .storageFailed("window \(number): the history's base state does not load: \(error.message)")
        }
        if each { try body(nil, scratch) }
        for entry in history.entries where entry.version <= version {
            let event: ChangeEvent
            for id in entry.droppedBefore { scratch.dropScheduled(id) }
            do {
                event = try Session.redo(entry.redo, on: scratch)
            } catch {
                throw .storageFailed("window \(number): version \(entry.version) does not replay: \(error.message)")
            }
            guard event.version == entry.version else {
                throw .storageFailed("window \(number): replaying reached version \(event.version), recorded \(entry.version)")
            }
            if each || entry.version == version { try body(event, scratch) }
        }
    }

    /// The trace (Docs/persistence.md, "Traces"): the manifest's identity, how to open the window, its state before
    /// the oldest kept change, and each kept change with its version, time, cause, active screen, planned steps and
    /// the state after it. O(kept changes × graph).
    /// - Throws: ``SessionError/limitsExceeded(_:)`` above ``SessionLimits/maxTraceBytes``.
    public func traceJSON() throws(SessionError) -> String {
        var out = #"{"format":"navsession-trace","formatVersion":1,"applicationID":"#
        out += JSONOutput.string(applicationID)
        out += #","window":\#(number),"scene":"# + JSONOutput.string(scene)
        out += #","params":"# + JSONOutput.string(history.base.models.first { $0.id == history.base.root }?.params ?? [:])
        var first = true
        let bound = limits.maxTraceBytes
        let entries = history.entries
        var index = 0
        let last = entries.last?.version ?? history.baseVersion
        try replay(through: last, each: true) { (event, graph) throws(SessionError) in
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
            out += Session.causeJSON(entry.cause)
            out += #","activeScreen":"# + JSONOutput.string(entry.activeScreen)
            out += #","steps":"# + NavigationStep.json(steps(of: event))
            out += #","state":"# + state + "}"
            guard out.utf8.count <= bound else {
                throw .limitsExceeded("the trace of window \(number) is larger than \(bound) bytes")
            }
        }
        return out + "]}"
    }

    /// The steps `Changed` carried for the change (``Session/rendererSteps(of:for:limits:)``'s rule).
    private func steps(of event: ChangeEvent) -> [NavigationStep] {
        let bound = limits.maxPlannedRouteEntries
        guard event.steps.reduce(0, { $0 + $1.size }) <= bound else { return [] }
        let shaped = NavigationStep.shaped(event.steps, for: capabilities.steps)
        if shaped.reduce(0, { $0 + $1.size }) <= bound { return shaped }
        return event.steps
    }
}
