import NavigationCore

/// A window's history: its recent changes, and what it takes to rebuild the state after any of them.
///
/// `base` is the window's state at `baseVersion`; `entries` are the changes after it, oldest first, each with the
/// journal entry that redoes it. The state after entry *k* is `base` with entries `0...k` redone on a scratch
/// window (``Session/state(window:at:)``). The list grows to twice the history's *span* of navigations
/// (``Session/historySpan(of:)``: ``SessionLimits/historyLength``, or a quarter of the window's models if more),
/// then the oldest half is folded into `base`: the window's own snapshot taken when the list reached one span
/// (`checkpoint`, the state after the last entry folded) becomes the base. One O(models) snapshot every span of
/// changes, nothing redone, O(1) per change otherwise — so a change's share stays the same at any depth (only a
/// history read back from disk without a checkpoint folds by redoing, once). ``Session/history(window:)`` lists
/// the newest `historyLength` entries.
struct WindowHistory: Sendable {
    /// One recorded change.
    struct Entry: Sendable {
        var version: Int
        /// Wall-clock milliseconds since the Unix epoch when the change was made; `nil` for changes read back
        /// from journals written before the history existed.
        var time: Int64?
        var cause: ChangeCause
        var activeScreen: String
        /// How to redo it on the state before it.
        var redo: JournalEntry
        /// About how many bytes it holds (its batch's JSON): what ``SessionLimits/maxHistoryBytes`` bounds.
        var bytes = 0
        /// Scheduled batches dropped without a change (failed at their deadline, overdue `drop`, their author left)
        /// after the entry before this one: a replay drops them before redoing this one.
        var droppedBefore: [String] = []

        /// Whether `Undo` can take the change back: it navigated, and not only by marks or schedules (a mark is its
        /// owner's authority, a scheduled batch its author's: undoing them would take back no navigation).
        var undoable: Bool {
            guard case .commands(let batch) = cause else { return navigates }
            return !batch.allSatisfy { entry in
                switch entry.command {
                case .setRendererState, .transaction, .protect, .unprotect, .schedule, .cancelScheduled, .prepare: true
                default: false
                }
            }
        }

        /// Whether the change navigated: anything but a renderer's own state (`setRendererState` alone, say a
        /// scroll position), which is kept for the states it leads to but is not a navigation entry: it is not
        /// listed by `GetHistory` and does not count towards ``SessionLimits/historyLength``.
        var navigates: Bool {
            guard case .commands(let batch) = cause else { return true }
            return !batch.allSatisfy { entry in
                switch entry.command {
                case .setRendererState, .transaction, .prepare: true
                default: false
                }
            }
        }
    }

    /// The window's state at ``baseVersion``.
    var base: WindowSnapshot
    /// Oldest first. Changed only by ``append(_:)`` and ``dropOldest(_:)``, which keep ``bytes``.
    private(set) var entries: [Entry] = []
    /// The sum of the entries' ``Entry/bytes``.
    private(set) var bytes = 0
    /// How many of the entries navigate (``Entry/navigates``): what ``SessionLimits/historyLength`` counts.
    private(set) var navigations = 0
    /// Scheduled batches dropped since the last entry, given to the next one (at most the window's waiting batches).
    var pendingDrops: [String] = []
    /// The versions of the changes `Undo` can take back, oldest first: every navigation entry's, an undone one
    /// moved to ``redoable`` (Window1 `Undo`/`Redo`, Docs/desktop.md). Derived from the entries' causes, so the
    /// stacks survive a restart with the history.
    private(set) var undoable: [Int] = []
    /// The versions of the undone changes `Redo` makes again, the most recently undone last; any other change
    /// empties it.
    private(set) var redoable: [Int] = []
    /// The window's state after the entry that completed the first span of navigations, taken when it was recorded:
    /// the next base.
    var checkpoint: WindowSnapshot?

    var baseVersion: Int { base.version }

    init(base: WindowSnapshot, entries: [Entry] = []) {
        self.base = base
        self.entries = entries
        bytes = entries.reduce(0) { $0 + $1.bytes }
        navigations = entries.reduce(0) { $0 + ($1.navigates ? 1 : 0) }
        for entry in entries { noteUndo(entry) }
    }

    mutating func append(_ entry: Entry) {
        var entry = entry
        if !pendingDrops.isEmpty {
            entry.droppedBefore = pendingDrops + entry.droppedBefore
            pendingDrops = []
        }
        entries.append(entry)
        bytes += entry.bytes
        if entry.navigates { navigations += 1 }
        noteUndo(entry)
    }

    /// Keeps ``undoable`` and ``redoable`` with one more entry. O(1).
    private mutating func noteUndo(_ entry: Entry) {
        switch entry.cause {
        case .undo(let version):
            if undoable.last == version { undoable.removeLast() }
            redoable.append(version)
        case .redo(let version):
            if redoable.last == version { redoable.removeLast() }
            undoable.append(version)
        case .moved:
            // A move is not taken back in one window (the models would be in two): it clears both windows' undo and
            // redo; moving the model back is the way (Docs/desktop.md).
            undoable.removeAll()
            redoable.removeAll()
        default:
            guard entry.undoable else { return }
            undoable.append(entry.version)
            redoable.removeAll()
        }
    }

    mutating func dropOldest(_ count: Int) {
        for entry in entries.prefix(count) {
            bytes -= entry.bytes
            if entry.navigates { navigations -= 1 }
        }
        entries.removeFirst(count)
        // An undo needs the state before its change, a redo the state after it: both within the kept range.
        let base = baseVersion
        undoable.removeAll { $0 - 1 < base }
        redoable.removeAll { $0 < base }
    }
}

/// A window's history in the snapshot file: `{"base":<WindowSnapshot>,"entries":[{"redo":<journal line>,
/// "activeScreen":"detail","time":1764210000000}…]}` (Docs/persistence.md). The cause is stored only when the `redo`
/// entry does not give it back (a scheduled run: `"cause":{"commands":[…],"scheduled":"toast"}`).
struct StoredHistory: Codable, Hashable {
    struct Entry: Codable, Hashable {
        var redo: JournalEntry
        var activeScreen: String
        var time: Int64?
        var cause: ChangeCause?
        /// ``WindowHistory/Entry/droppedBefore`` (absent when none).
        var dropped: [String]?
    }

    var base: WindowSnapshot
    var entries: [Entry]
    /// ``WindowHistory/pendingDrops``: batches dropped after the last entry (absent when none).
    var dropped: [String]?
}

extension JournalEntry {
    /// Whether it is a move between windows (two windows' changes in one line).
    var isMove: Bool { if case .move = self { true } else { false } }

    /// The window version a versioned change reached; `nil` for the entries that change no window version.
    var windowVersion: Int? {
        switch self {
        case .batch(_, _, let version), .report(_, _, let version), .reapply(_, _, _, _, _, let version),
            .scheduledRan(_, _, let version), .restore(_, _, _, let version):
            version
        default: nil
        }
    }

    /// The cause its change had, when the entry alone gives it back.
    var cause: ChangeCause? {
        switch self {
        case .batch(_, let batch, _): .commands(batch)
        case .report(_, let report, _): .report(report)
        case .reapply(_, let alert, let action, _, _, _): .report(.alertActionChosen(alert: alert, action: action))
        case .restore(_, let cause, _, _): cause
        default: nil
        }
    }
}
