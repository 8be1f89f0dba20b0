import Logging

/// Applying batches atomically and committing a change: lifecycle, messages, effects, version.
extension NavigationWindow {
    /// Executes one command from `from` (default: the active model) as one change.
    ///
    /// ```swift
    /// try window.execute(.stackAppend(.screen("detail")))
    /// try window.execute(.dismiss, from: sheetID, animated: false)
    /// ```
    /// - Returns: The change event (version + 1, started/finished models, messages, effects).
    /// - Throws: The command's ``NavigationError`` (not wrapped); nothing changes.
    @discardableResult
    public func execute(
        _ command: NavigationCommand, from: ModelID? = nil, animated: Bool = true
    ) throws(NavigationError) -> ChangeEvent {
        try apply([BatchCommand(command, from: from, animated: animated)])
    }

    /// Applies a batch atomically: all commands or none, one version bump, one change event.
    ///
    /// Each entry runs from its `from` model or, when `nil`, from the active model as it is after the
    /// earlier entries.
    /// - Throws: ``NavigationError/emptyBatch``; for a batch of one the command's own error; otherwise
    ///   ``NavigationError/batchCommandFailed(index:_:)``. The window is left exactly as before.
    @discardableResult
    public func apply(_ batch: [BatchCommand]) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        guard !batch.isEmpty else { throw .emptyBatch }
        return try transact(cause: .commands(batch), animated: batch.contains { $0.animated }) { () throws(NavigationError) in
            for (index, entry) in batch.enumerated() {
                do throws(NavigationError) {
                    try run(entry.command, from: entry.from ?? activeModelID)
                } catch {
                    throw batch.count == 1 ? error : .batchCommandFailed(index: index, error)
                }
            }
        }
    }

    /// Expands an application-defined composite against the current graph and applies it as one batch.
    ///
    /// - Throws: Whatever the expansion throws, or the batch's error; nothing changes on failure.
    @discardableResult
    public func execute(
        _ composite: some CompositeCommand, from: ModelID? = nil, animated: Bool = true
    ) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        let origin = from ?? activeModelID
        guard contains(origin) else { throw .unknownModel(origin) }
        let commands = try composite.commands(in: self, from: origin)
        guard !commands.isEmpty else { throw .emptyBatch }
        return try apply(commands.map { BatchCommand($0, from: origin, animated: animated) })
    }

    /// Runs `body` as one change: commit on success, roll back everything on failure.
    func transact(
        cause: ChangeCause, animated: Bool, _ body: () throws(NavigationError) -> Void
    ) throws(NavigationError) -> ChangeEvent {
        let startID = nextID
        tx = Transaction()
        do throws(NavigationError) {
            try body()
        } catch {
            rollback(nextID: startID)
            throw error
        }
        return commit(cause: cause, animated: animated)
    }

    private func rollback(nextID startID: Int) {
        for step in tx.undo.reversed() {
            switch step {
            case .created(let id): nodes[id] = nil
            case .linked(let child): unlink(child, journal: false)
            case .unlinked(let child, let parent, let attachment, let position):
                link(child, to: parent, as: attachment, position: position, journal: false)
            case .pathAppended(let stack, let count): stack.path.removeLast(count)
            case .pathDropped(let stack, let elements): stack.path.append(contentsOf: elements)
            case .pathReplaced(let stack, let old):
                stack.path = old
                for (index, element) in old.enumerated() {
                    nodes[element.model]?.attachment = .path(index: index)
                    nodes[element.model]?.position = index
                }
            case .pathElementReplaced(let stack, let index, let old): stack.path[index] = old
            case .slot(let presenter, let old): setSlot(presenter, to: old, journal: false)
            case .selectedTab(let tabs, let old): tabs.selectedTab = old
            case .switched(let container, let old): container.switchedModel = old
            }
        }
        nextID = startID
        tx = Transaction()
    }

    private func commit(cause: ChangeCause, animated: Bool) -> ChangeEvent {
        version += 1
        let started = tx.created.filter { isAttached($0) }
        for node in started { node.started = true }

        var finished: [ModelID] = []
        var removed: [Node] = []
        let detachedRoots = tx.closing ? closingRoots() : tx.unlinked.filter { $0.parent == nil && $0.id != rootID }
        for subtreeRoot in detachedRoots {
            preorder(from: subtreeRoot) { node in
                removed.append(node)
                if node.started { finished.append(node.id) }
            }
        }
        if !tx.closing {
            for node in removed { nodes[node.id] = nil }
        }

        var messages = tx.messages
        messages.append(contentsOf: finished.map { DeliveredMessage(recipient: $0, sender: nil, message: .finished) })
        let effects = zip(tx.effects, tx.effectSources).map { QueuedEffect(effect: $0, source: $1, version: version) }
        let createdIDs = Set(tx.created.map(\.id))
        let event = ChangeEvent(
            version: version, cause: cause, animated: animated, started: started.map(\.id), finished: finished,
            modified: tx.modified.filter { !createdIDs.contains($0) && nodes[$0] != nil }, messages: messages,
            effects: effects, activeModel: activeModelID)
        effectQueue.append(contentsOf: effects)
        tx = Transaction()

        for node in started {
            logger.debug("started", metadata: ["model": "\(node.id)", "screen": "\(node.screen)"])
        }
        changeHandler?(event)
        for message in messages { deliver(message) }
        for id in finished { listeners[id] = nil }
        return event
    }

    /// Visits `start` and its subtree in graph pre-order (presented child before container children).
    /// Iterative, so deep presentation chains cannot overflow the stack.
    func preorder(from start: Node, _ visit: (Node) -> Void) {
        var pending: [Node] = [start]
        while let node = pending.popLast() {
            visit(node)
            for childID in node.children.reversed() {
                if let child = nodes[childID] { pending.append(child) }
            }
        }
    }

    private func closingRoots() -> [Node] {
        guard let root = nodes[rootID] else { return [] }
        return root.children.compactMap { nodes[$0] }
    }
}
