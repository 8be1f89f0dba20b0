/// Bringing a window back to a state it was in (Window1 `Undo` and `Redo`), as one change that keeps identities.
extension NavigationWindow {
    /// Brings the window back to `snapshot`, a state it was in earlier (its own history's, so its ids are this
    /// window's), as one change: a model in both keeps its id and is not restarted (its params, title, renderer
    /// state and place are the snapshot's); a model only in the snapshot comes back with its id (ids are never
    /// given to another model, so an id the window no longer holds is that very model's); a model only in the
    /// window finishes. Unlike ``setState(_:budget:)``, which starts every model anew with fresh ids.
    ///
    /// What is not navigation is the window's as it is now: protection marks stay on the models that stay (a
    /// model that comes back comes back unmarked: a mark is its owner's, and a client that left has none), the
    /// scheduled batches stay (those of a model that finishes go with it), and the id counter never goes back.
    /// The forward list is cleared, as by any change that is not a back.
    ///
    /// The change meets the rules of any change: a mark on a model it would finish refuses it
    /// (``NavigationError/prevented(model:reason:dialog:owner:)``), the window's limits and `budget` apply, and
    /// the commit gate stops it when it enters or leaves a watched screen. Its one step is `replaceRoot` (a
    /// renderer shows the new state whole). O(models of the window and of the snapshot).
    /// - Parameter cause: ``ChangeCause/undo(version:)`` or ``ChangeCause/redo(version:)``.
    /// - Throws: ``NavigationError/windowClosed``, ``NavigationError/invalidSnapshot(_:)``, the refusals above;
    ///   nothing changes.
    /// - Parameter decidingAsChange: with `dryRun`, the commit gate is asked as for the change itself (not as a
    ///   dry run), so its decision is the one the change will meet: a move checks both windows this way before
    ///   either changes.
    @discardableResult
    public func restore(
        _ snapshot: WindowSnapshot, cause: ChangeCause, budget: ContentBudget? = nil, dryRun: Bool = false,
        decidingAsChange: Bool = false
    ) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        guard tx.undo.isEmpty, tx.created.isEmpty else { throw .invalidSnapshot("a change is in progress") }
        // The marks are the window's now: carried onto the models that stay, none on those that come back. A move
        // carries its models' marks (with their owners) in the snapshot, and the models it takes away move, not finish.
        var models = snapshot.models
        // A manifest reload keeps the marks too (the application changed, not the owner's mind) and asks no guard.
        let moving: Bool = switch cause {
        case .moved, .reloaded: true
        default: false
        }
        let asking: Bool = if case .reloaded = cause { false } else { true }
        if !moving {
            for index in models.indices { models[index].protection = nodes[models[index].id]?.protection }
        }
        var marked = WindowSnapshot(
            unchecked: snapshot.version, nextModelID: max(snapshot.nextModelID, nextID), root: snapshot.root,
            models: models, isClosed: false)
        marked.nextScheduleNumber = snapshot.nextScheduleNumber
        marked.rendererState = snapshot.rendererState
        if moving {
            marked.scheduled = snapshot.scheduled
            marked.forward = snapshot.forward
        }
        let target = try NavigationWindow(snapshot: marked, configuration: configuration, logger: logger)

        let finishing = nodes.values.filter { $0.started && target.nodes[$0.id] == nil }
        let starting = target.nodes.values.filter { nodes[$0.id] == nil }
        for node in finishing.sorted(by: { $0.id.rawValue < $1.id.rawValue }) where !moving {
            if let protection = node.protection {
                throw .prevented(model: node.id, reason: protection.reason, dialog: protection.dialog, owner: protection.owner)
            }
        }
        let limits = configuration.limits
        guard target.nodes.count <= limits.maxModels, target.contentCost <= limits.maxContentCost else {
            throw .limitsExceeded(
                "the state would hold \(target.nodes.count) models of \(target.contentCost) bytes; over the limits")
        }
        try budget?.check(target.contentCost, replacing: contentCost)
        if let gate = commitGate, asking {
            var entered: [CommitGate.Touched] = []
            var left: [CommitGate.Touched] = []
            for node in starting.sorted(by: { $0.id.rawValue < $1.id.rawValue })
            where gate.alwaysConsulted || gate.screens[node.screen]?.contains(.enter) == true {
                entered.append(CommitGate.Touched(id: node.id, screen: node.screen))
            }
            for node in finishing.sorted(by: { $0.id.rawValue < $1.id.rawValue })
            where gate.alwaysConsulted || gate.screens[node.screen]?.contains(.leave) == true {
                left.append(CommitGate.Touched(id: node.id, screen: node.screen))
            }
            if gate.alwaysConsulted || !entered.isEmpty || !left.isEmpty {
                let change = CommitGate.Change(
                    version: version, cause: cause, entered: entered, left: left, dryRun: dryRun && !decidingAsChange)
                guard gate.decided == change else { throw .undecided(change) }
            }
        }
        let started = starting.map(\.id).sorted { $0.rawValue < $1.rawValue }
        let finished = finishing.map(\.id).sorted { $0.rawValue < $1.rawValue }
        // The models that stay and differ (params, title, place, content, renderer state…).
        let declared = configuration.appearances
        let modified = target.nodes.values.compactMap { node -> ModelID? in
            guard let before = nodes[node.id], before.state(declared: declared) != node.state(declared: declared) else {
                return nil
            }
            return node.id
        }.sorted { $0.rawValue < $1.rawValue }
        guard !dryRun else {
            return ChangeEvent(
                version: version + 1, cause: cause, animated: false, started: started, finished: finished,
                modified: modified, messages: [], effects: [], activeModel: target.activeModelID)
        }

        let previousRoot = rootID
        version += 1
        nodes = target.nodes
        tags = target.tags
        self.marked = target.marked
        cachedProtectionsJSON = nil
        rootID = target.rootID
        nextID = max(nextID, target.nextID)
        contentCost = target.contentCost
        rendererState = target.rendererState
        if moving {
            // The snapshot says what stays: the batches and the forward list the move left or brought.
            forward = target.forward
            scheduled = target.scheduled
            nextScheduleNumber = max(nextScheduleNumber, target.nextScheduleNumber)
        } else {
            if !forward.isEmpty { forward = [] }
            if !scheduled.isEmpty, !finishing.isEmpty { cancelScheduled(of: finishing) }
        }
        let messages = finished.map { DeliveredMessage(recipient: $0, sender: nil, message: .finished) }
        var event = ChangeEvent(
            version: version, cause: cause, animated: false, started: started, finished: finished,
            modified: modified,
            messages: messages, effects: [], activeModel: activeModelID)
        event.steps = [.replaceRoot(from: previousRoot, to: rootID)]
        changeHandler?(event)
        for message in messages { deliver(message) }
        for id in finished { listeners[id] = nil }
        return event
    }
}
