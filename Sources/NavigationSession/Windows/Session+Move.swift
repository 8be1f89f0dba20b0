#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore

/// Moving a model with everything under it to another window, or to a new one (Session1 `MoveModel`, the
/// `moveModel` command; Docs/desktop.md "Move and merge"): a browser's tab tear-off and merge, for any branch.
extension Session {
    /// The most bytes of a `placement_json`.
    public static let maxPlacementBytes = 4096

    /// Moves model `model` of window `number` — a tab, a pushed screen with those above it, or a presented model with
    /// its own presentations — into window `target`, or into a new window when `target` is 0 (a tear-off).
    ///
    /// One change in each window, both written as one journal line (a crash leaves the move whole or not made), with
    /// the same ``MoveRecord`` as cause: its `transaction` pairs the two `Changed` signals, its `ids` maps the moved
    /// models' ids (kept in a new window, fresh in an existing one). Params, titles, renderer state, marks (with their
    /// owners), kept branches and params history go along; in a new window the batches the models scheduled and the
    /// forward list too. Guards of both windows are asked (leaving the source, entering the target); the content and
    /// window limits and the caller's shares apply. A move clears both windows' undo and redo (Docs/desktop.md).
    /// - Parameter placementJSON: ``MovePlacement``'s JSON; empty: automatic.
    /// - Returns: the outcome; ``SessionOutcome/window`` is the target (the new window's number for a tear-off).
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/invalidArguments(_:)`` (the same window, a
    ///   single-instance scene with a window open), ``SessionError/unknownScene(_:suggestion:)``,
    ///   ``SessionError/navigation(_:)`` (an unknown or suspended model, a branch that cannot move or cannot go where
    ///   asked, a guard, a limit), ``SessionError/limitsExceeded(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func moveModel(
        window number: WindowNumber, model: ModelID, to target: WindowNumber, placementJSON: String, client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        let placement = try Self.placement(placementJSON)
        return try acting(as: client) { () throws(SessionError) in
            var events: [SessionEvent] = []
            let moved = try moveModel(window: number, model: model, to: target, placement: placement, events: &events)
            return outcome(window: moved.target, events: events)
        }
    }

    /// Reads a `placement_json`.
    static func placement(_ text: String) throws(SessionError) -> MovePlacement {
        guard text.utf8.count <= maxPlacementBytes else {
            throw .invalidArguments("placement_json is \(text.utf8.count) bytes; at most \(maxPlacementBytes)")
        }
        guard !text.allSatisfy(\.isWhitespace) else { return MovePlacement() }
        do {
            return try JSONDecoder().decode(MovePlacement.self, from: Data(text.utf8))
        } catch {
            throw .navigation(.invalidSpec("placement_json: \(SessionStore.describe(error))"))
        }
    }

    /// A batch that is one `moveModel`: the command and its entry, else `nil`.
    static func soleMove(in batch: [BatchCommand]) -> (model: ModelReference?, toWindow: Int, placement: MovePlacement, from: ModelReference?)? {
        guard batch.count == 1, let entry = batch.first, case .moveModel(let model, let toWindow, let placement) = entry.command
        else { return nil }
        return (model, toWindow, placement, entry.from)
    }

    /// A batch of one `moveModel` sent to `window` (Window1 `Apply`, `Execute`): the move, its source change returned.
    func applyMove(
        _ window: SessionWindow, model reference: ModelReference?, toWindow: Int, placement: MovePlacement,
        from: ModelReference?, events: inout [SessionEvent]
    ) throws(SessionError) -> ChangeEvent {
        guard let target = WindowNumber(exactly: toWindow) else {
            throw .invalidArguments("toWindow \(toWindow) is not a window number")
        }
        let model: ModelID
        do {
            model = try window.graph.resolve(reference ?? from ?? .id(window.graph.activeModelID))
        } catch {
            throw .navigation(error)
        }
        return try moveModel(window: window.number, model: model, to: target, placement: placement, events: &events).source
    }

    /// The move, with the acting client set; its events appended to `events`. Returns the target window's number and
    /// the source window's change.
    func moveModel(
        window number: WindowNumber, model: ModelID, to target: WindowNumber, placement: MovePlacement,
        events: inout [SessionEvent]
    ) throws(SessionError) -> (target: WindowNumber, source: ChangeEvent) {
        let source = try window(number)
        guard target != number else {
            throw .invalidArguments("model \(model) is in window \(number) already; name another window, or 0 for a new one")
        }
        let targetWindow: SessionWindow? = target == 0 ? nil : try window(target)
        // Both windows' policies before anything else is asked (a guard provider, a share): the caller may change
        // both or neither moves.
        try checkPolicy(source)
        if let targetWindow { try checkPolicy(targetWindow) }
        try checkHistoryShare()
        let whole = source.graph.snapshot()
        if whole.movesWholeWindow(model) {
            guard let targetWindow else {
                throw .navigation(.invalidSpec("model \(model) is window \(number)'s whole content: it is a window already"))
            }
            return try moveWholeWindow(source, whole, into: targetWindow, model: model, placement: placement, events: &events)
        }
        let split: (remaining: WindowSnapshot, branch: MovedBranch)
        do {
            split = try whole.detaching(model, activeModel: source.graph.activeModelID)
        } catch {
            throw .navigation(error)
        }
        let transaction = "move-\(number)-\(source.graph.version + 1)"
        if let targetWindow {
            let attached: (state: WindowSnapshot, ids: [ModelID: ModelID], tab: String?)
            do {
                attached = try targetWindow.graph.snapshot().attaching(
                    split.branch, at: placement, activeModel: targetWindow.graph.activeModelID)
            } catch {
                throw .navigation(error)
            }
            let record = MoveRecord(
                transaction: transaction, from: Int(number), to: Int(target), model: model, ids: attached.ids, tab: attached.tab)
            // Both windows asked and checked before either changes: all or nothing.
            try dryRun(source, split.remaining, record)
            try dryRun(targetWindow, attached.state, record)
            let original = source.graph.snapshot()
            let sourceEvent = try replace(source, with: split.remaining, record)
            let targetEvent: ChangeEvent
            do {
                targetEvent = try replace(targetWindow, with: attached.state, record)
            } catch {
                // Never expected after the dry run (the same state, the same decisions): the source takes its models
                // back, and the next write is a whole snapshot, so the journal never holds half a move.
                logger.error("a move failed after its check; the source window takes its models back", metadata: ["error": "\(error)"])
                if let back = try? source.graph.restore(original, cause: .moved(record)) {
                    needsSnapshot = true
                    afterChange(source, sourceEvent, events: &events)
                    afterChange(source, back, events: &events)
                }
                throw error
            }
            try persist(.move(
                from: .restore(window: number, cause: .moved(record), snapshot: split.remaining, version: sourceEvent.version),
                to: .restore(window: target, cause: .moved(record), snapshot: attached.state, version: targetEvent.version)))
            events.append(.moved(record))
            afterChange(source, sourceEvent, events: &events)
            afterChange(targetWindow, targetEvent, events: &events)
            return (target, sourceEvent)
        }
        // A tear-off: a new window of the branch.
        let scene = placement.scene ?? source.scene
        guard let declared = manifest.scene(scene) else { throw .unknownScene(scene, suggestion: Spelling.closest(to: scene, in: manifest.sceneNames)) }
        if declared.instances == .single, let open = windows.first(where: { $0.scene == scene }) {
            throw .invalidArguments("scene '\(scene)' has one window at a time and window \(open.number) is open")
        }
        let state: WindowSnapshot
        do {
            state = try WindowSnapshot.window(holding: split.branch)
        } catch {
            throw .navigation(error)
        }
        let graph = try makeGraph(snapshot: state, scene: scene)
        let newNumber = nextWindowNumber
        let record = MoveRecord(
            transaction: transaction, from: Int(number), to: Int(newNumber), model: model,
            ids: Dictionary(uniqueKeysWithValues: split.branch.models.map { ($0.id, $0.id) }))
        try dryRun(source, split.remaining, record)
        let sourceEvent = try replace(source, with: split.remaining, record)
        let opened = addWindow(graph, number: newNumber, scene: scene)
        // What moves out stays under the policy it was under (the replay of the line does the same).
        opened.policy = source.policy
        nextWindowNumber += 1
        version += 1
        let sessionVersion = version
        try persist(.move(
            from: .restore(window: number, cause: .moved(record), snapshot: split.remaining, version: sourceEvent.version),
            to: .openSnapshot(window: newNumber, scene: scene, snapshot: state, sessionVersion: sessionVersion)))
        clientBudgets.opened(newNumber, by: actingClient)
        clientBudgets.record(graph.contentCost, in: newNumber, by: actingClient)
        applyOverdueRules(to: opened)
        events.append(.windowOpened(newNumber, scene: scene))
        events.append(.moved(record))
        afterChange(source, sourceEvent, events: &events)
        return (newNumber, sourceEvent)
    }

    /// Everything `source` holds goes onto `target`'s stack and `source` closes (it is not remembered as closed: its
    /// content lives on in `target`), as a browser window closes when its only tab is dragged into another.
    private func moveWholeWindow(
        _ source: SessionWindow, _ state: WindowSnapshot, into target: SessionWindow, model: ModelID, placement: MovePlacement,
        events: inout [SessionEvent]
    ) throws(SessionError) -> (target: WindowNumber, source: ChangeEvent) {
        let attached: (state: WindowSnapshot, ids: [ModelID: ModelID], tab: String?)
        let moving: Set<ModelID>
        do {
            let branch = try state.wholeWindowBranch()
            moving = branch.ids
            attached = try target.graph.snapshot().attaching(branch, at: placement, activeModel: target.graph.activeModelID)
        } catch {
            throw .navigation(error)
        }
        // What stays behind finishes with the window (its root stack): a mark there refuses the move, as it would the
        // close; the marks of what moves go with it.
        if let kept = source.graph.protections.first(where: { !moving.contains($0.model) }) {
            let error = NavigationError.prevented(
                model: kept.model, reason: kept.protection.reason, dialog: kept.protection.dialog, owner: kept.protection.owner)
            noteRefusal(error, in: source.number)
            throw .navigation(error)
        }
        let record = MoveRecord(
            transaction: "move-\(source.number)-\(source.graph.version + 1)", from: Int(source.number), to: Int(target.number),
            model: model, ids: attached.ids)
        try dryRun(target, attached.state, record)
        // The source closes first: its guards may refuse, and nothing has changed yet.
        var closing: ChangeEvent
        do {
            closing = try gated(source) { () throws(NavigationError) in
                try source.graph.report(.windowClosed, waiving: moving)
            }
        } catch {
            noteRefusal(error, in: source.number)
            throw .navigation(error)
        }
        // Its renderer learns why it closes: the move, paired with the target's change.
        closing.cause = .moved(record)
        let targetEvent = try replace(target, with: attached.state, record)
        _ = source.graph.drainEffects()
        _ = source.graph.drainMessages()
        removeWindow(source.number)
        order.removeAll { $0 == source.number }
        version += 1
        try persist(.move(
            from: .dismiss(window: source.number, sessionVersion: version),
            to: .restore(window: target.number, cause: .moved(record), snapshot: attached.state, version: targetEvent.version)))
        events.append(.moved(record))
        events.append(.changed(source.number, closing, steps: [], causeJSON: causeJSON(of: closing)))
        events.append(.windowClosed(source.number, scene: source.scene))
        afterChange(target, targetEvent, events: &events)
        return (target.number, closing)
    }

    /// Asks `window`'s guards (as for the change itself: the decision the change will meet) and checks its limits for
    /// taking `state`, changing nothing.
    private func dryRun(_ window: SessionWindow, _ state: WindowSnapshot, _ record: MoveRecord) throws(SessionError) {
        do {
            _ = try gated(window) { () throws(NavigationError) in
                try window.graph.restore(
                    state, cause: .moved(record), budget: contentBudget(for: window), dryRun: true, decidingAsChange: true)
            }
        } catch {
            noteRefusal(error, in: window.number)
            throw .navigation(error)
        }
    }

    /// `window` takes `state` (one change), charged to the acting client.
    private func replace(_ window: SessionWindow, with state: WindowSnapshot, _ record: MoveRecord) throws(SessionError) -> ChangeEvent {
        try change(window) { graph, budget throws(NavigationError) in
            try graph.restore(state, cause: .moved(record), budget: budget)
        }
    }
}
