import NavigationCore

/// Undo and redo of any change of a window (Window1 `Undo`, `Redo`; Docs/desktop.md): the window brought back to a
/// state its history keeps, as one change that keeps the models' identities (``NavigationWindow/restore(_:cause:budget:dryRun:)``).
extension Session {
    /// Takes back the newest change of window `number` not yet undone: the window back in the state before it.
    /// - Parameter client: the caller, whose authority the change has (marks, guards, its content share).
    /// - Throws: ``SessionError/nothingToUndo(window:)``, ``SessionError/unknownWindow(_:)``,
    ///   ``SessionError/navigation(_:)`` (a mark, a guard, a limit), ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func undo(window number: WindowNumber, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try travel(number, client: client) { history throws(SessionError) in
            guard let version = history.undoable.last else { throw .nothingToUndo(window: number) }
            return (version - 1, .undo(version: version))
        }
    }

    /// Makes the most recently undone change of window `number` again: the window in the state after it.
    /// - Throws: ``SessionError/nothingToRedo(window:)`` and what ``undo(window:client:)`` throws.
    @discardableResult
    public func redo(window number: WindowNumber, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try travel(number, client: client) { history throws(SessionError) in
            guard let version = history.redoable.last else { throw .nothingToRedo(window: number) }
            return (version, .redo(version: version))
        }
    }

    /// `Undo` and `Redo`: window `number` back in the state at the version `target` picks from its history, as a
    /// change with `client`'s authority and the cause `target` names.
    private func travel(
        _ number: WindowNumber, client: String?,
        to target: (WindowHistory) throws(SessionError) -> (version: Int, cause: ChangeCause)
    ) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            let window = try window(number)
            try checkPolicy(window)
            let (version, cause) = try target(window.history)
            return try restore(window, toStateAt: version, cause: cause)
        }
    }

    /// Whether `Undo` / `Redo` have something to do in `window` (`CanUndo`, `CanRedo`). O(1).
    public func undoAbilities(of window: SessionWindow) -> (canUndo: Bool, canRedo: Bool) {
        (!window.history.undoable.isEmpty, !window.history.redoable.isEmpty)
    }

    /// `UndoLabel`: what `Undo` would take back, in the manifest's titles — "Undo open Detail", "Undo close
    /// Editor", "Undo switch to Settings" — or `""` when there is nothing to undo. O(1) (the entries are found by
    /// version from the newest end).
    public func undoLabel(of window: SessionWindow) -> String {
        guard let version = window.history.undoable.last,
            let index = window.history.entries.lastIndex(where: { $0.version == version })
        else { return "" }
        let entries = window.history.entries
        let after = entries[index].activeScreen
        let before = index > 0 ? entries[index - 1].activeScreen : nil
        // "Undo <verb> <title>", or "Undo change": written into one string's storage (this is read after every
        // change, and joining the pieces allocated for each).
        func label(_ verb: String, _ screen: String?) -> String {
            guard let screen else { return "Undo " + verb }
            let title = manifest.screensByName[screen]?.title ?? screen
            let text = String(utf8Joining: "Undo ".utf8, verb.utf8, CollectionOfOne(UInt8(ascii: " ")), title.utf8)
            // An empty title leaves a space: it goes, as does one a title ends with (the byte first, then the
            // character, which is what the label always did).
            return text.utf8.last == UInt8(ascii: " ") && text.hasSuffix(" ") ? String(text.dropLast()) : text
        }
        switch entries[index].cause {
        case .commands(let batch), .scheduled(_, let batch):
            switch batch.first?.command.intent {
            case .opens?, .goesForward?: return label("open", after)
            case .closes?: return label("close", before)
            case .switches?: return label("switch to", after)
            case .edits?: return label("edit", after)
            case .rearranges?, .other?, nil: return "Undo change"
            }
        case .report(.poppedTo), .report(.dismissedInteractively): return label("close", before)
        case .report(.selectedTab), .report(.selectedChild): return label("switch to", after)
        default: return "Undo change"
        }
    }

    private func restore(_ window: SessionWindow, toStateAt target: Int, cause: ChangeCause) throws(SessionError) -> SessionOutcome {
        let number = window.number
        let snapshot = try state(window: number, at: target)
        var events: [SessionEvent] = []
        try checkHistoryShare()
        let event = try change(window) { graph, budget throws(NavigationError) in
            try graph.restore(snapshot, cause: cause, budget: budget)
        }
        try persist(.restore(window: number, cause: cause, snapshot: snapshot, version: event.version))
        afterChange(window, event, events: &events)
        return outcome(window: number, events: events)
    }
}
