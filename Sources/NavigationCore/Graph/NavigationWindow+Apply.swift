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
    /// - Parameter budget: a content budget this window shares with others (a session's), checked with the
    ///   window's ``GraphLimits`` before the change commits: an input, so the window asks nothing of its
    ///   owner during a change.
    /// - Parameter checkingEntry: `false` skips ``WindowConfiguration/entryRequirements`` (a journal replay redoes
    ///   changes that were admitted when they were made, whatever the manifest declares now).
    /// - Parameter waiving: protected models the batch may finish or suspend anyway (a change re-applied from
    ///   a protection's dialog; Docs/guards.md).
    @discardableResult
    public func apply(
        _ batch: [BatchCommand], budget: ContentBudget? = nil, checkingEntry: Bool = true, waiving: Set<ModelID> = []
    ) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        guard !batch.isEmpty else { throw .emptyBatch }
        let batch = withDeadlines(batch)
        return try transact(
            cause: .commands(batch), animated: batch.contains { $0.animated }, budget: budget, checkingEntry: checkingEntry,
            waiving: waiving
        ) {
            () throws(NavigationError) in
            for (index, entry) in batch.enumerated() {
                do throws(NavigationError) {
                    try run(entry.command, from: try entry.from.map(resolve) ?? activeModelID)
                } catch {
                    throw batch.count == 1 ? error : .batchCommandFailed(index: index, error)
                }
            }
        }
    }

    /// What ``apply(_:budget:)`` would return for `batch` now, without changing anything (the
    /// `canExecute` of the navigation libraries): the next version and the ids the new models would get,
    /// or the error `apply` would throw. Effects are not carried out and no messages are delivered.
    ///
    /// ```swift
    /// let canGoBack = (try? window.dryRun([BatchCommand(.stackDropLast(1))])) != nil
    /// ```
    public func dryRun(_ batch: [BatchCommand], budget: ContentBudget? = nil) throws(NavigationError) -> ChangeEvent {
        guard !isClosed else { throw .windowClosed }
        guard !batch.isEmpty else { throw .emptyBatch }
        return try transact(
            cause: .commands(batch), animated: batch.contains { $0.animated }, budget: budget, dryRun: true
        ) { () throws(NavigationError) in
            for (index, entry) in batch.enumerated() {
                do throws(NavigationError) {
                    try run(entry.command, from: try entry.from.map(resolve) ?? activeModelID)
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
        cause: ChangeCause, animated: Bool, budget: ContentBudget? = nil, dryRun: Bool = false,
        checkingEntry: Bool = true, waiving: Set<ModelID> = [], _ body: () throws(NavigationError) -> Void
    ) throws(NavigationError) -> ChangeEvent {
        let startID = nextID
        tx = Transaction()
        let plan: CommitPlan
        do throws(NavigationError) {
            try body()
            if changesNothing {
                // Popping at the root of a path that is already there, re-selecting the selected tab…: the
                // caller asked for the state the window is in. No version, no event, nothing journaled.
                rollback(nextID: startID)
                return ChangeEvent(unchangedAt: version, cause: cause, activeModel: activeModelID)
            }
            try checkTagClaims()
            plan = prepareCommit()
            if protectedCount > 0 { try checkProtections(plan, waiving: waiving) }
            try checkLimits(plan)
            if checkingEntry { try checkEntryConditions(plan.started) }
            try budget?.check(plan.contentCost, replacing: contentCost)
            if commitGate != nil {
                try checkGate(
                    started: plan.started, removed: plan.removed, suspended: plan.suspended, cause: cause, dryRun: dryRun)
            }
        } catch {
            rollback(nextID: startID)
            throw error
        }
        if dryRun {
            let event = ChangeEvent(
                version: version + 1, cause: cause, animated: animated, started: plan.started.map(\.id),
                finished: plan.removed.filter(\.started).map(\.id), modified: [], messages: [], effects: [],
                activeModel: activeModelID)
            rollback(nextID: startID)
            return event
        }
        return commit(plan, cause: cause, animated: animated)
    }

    /// What committing the current transaction will start and remove; computed before the commit so
    /// limits are checked against the state the change leads to. O(size of the change).
    private func prepareCommit() -> CommitPlan {
        // Models created and kept by the same change start (and are suspended): they stay in the window.
        let started = createdInGraph()
        var removed: [Node] = []
        var seen: Set<ModelID> = []
        let detachedRoots = tx.closing ? closingRoots() : tx.unlinked.filter { $0.parent == nil && $0.id != rootID }
        // A single root needs no set (most changes detach one subtree or none).
        for subtreeRoot in detachedRoots where detachedRoots.count == 1 || seen.insert(subtreeRoot.id).inserted {
            // Kept branches of a removed switched container go with it.
            preorder(from: subtreeRoot, includingSaved: true) { removed.append($0) }
        }
        // Nodes created and dropped in this transaction were never counted; every other removed node was.
        let gained = started.reduce(0) { $0 + $1.cost }
        let lost = removed.reduce(0) { $0 + ($1.started ? $1.cost : 0) }
        let modelCount = tx.closing ? nodes.count : nodes.count - removed.count
        let (suspended, resumed) = tx.keeping.isEmpty ? ([], []) : suspendedAndResumed()
        return CommitPlan(
            started: started, removed: removed, contentCost: contentCost + gained - lost + tx.costDelta, modelCount: modelCount,
            suspended: suspended, resumed: resumed)
    }

    /// The models the change created that are in the graph when it commits. One model: its walk to the root; many
    /// (a `setRoutes` building a chain of presentations): each walk stops at a model already answered, so the cost is
    /// the number of models walked once, not the created models times their depth.
    private func createdInGraph() -> [Node] {
        guard tx.created.count > 1 else { return tx.created.filter { isInGraph($0) } }
        var known: [ModelID: Bool] = [:]
        known.reserveCapacity(tx.created.count * 2)
        var path: [Node] = []
        return tx.created.filter { node in
            path.removeAll(keepingCapacity: true)
            var current: Node? = node
            var answer = false
            while let model = current {
                if let cached = known[model.id] {
                    answer = cached
                    break
                }
                path.append(model)
                guard let parentID = model.parent else {
                    answer = model.id == rootID
                    break
                }
                current = nodes[parentID]
            }
            for model in path { known[model.id] = answer }
            return answer
        }
    }

    /// The models this change suspends (in branches it kept that were live before) and resumes (in branches
    /// it brought back that were kept before), each in pre-order; a branch kept and brought back by the same
    /// change is neither, and one that finishes is only finished. O(size of the branches).
    private func suspendedAndResumed() -> (suspended: [Node], resumed: [Node]) {
        var wasKept: [ModelID: Bool] = [:]
        var order: [Node] = []
        for (root, suspended) in tx.keeping where wasKept[root.id] == nil {
            // The first thing the change did to the branch tells where it was before.
            wasKept[root.id] = !suspended
            order.append(root)
        }
        var suspended: [Node] = []
        var resumed: [Node] = []
        for root in order {
            let before = wasKept[root.id] ?? false
            switch placement(of: root) {
            case .kept where !before: preorder(from: root) { suspended.append($0) }
            case .live where before: preorder(from: root) { resumed.append($0) }
            default: break
            }
        }
        return (suspended, resumed)
    }

    /// Throws ``NavigationError/limitsExceeded(_:)`` when the change would leave the window over its limits.
    private func checkLimits(_ plan: CommitPlan) throws(NavigationError) {
        let limits = configuration.limits
        guard !plan.started.isEmpty || plan.contentCost > contentCost else { return }
        guard plan.modelCount <= limits.maxModels else {
            throw .limitsExceeded("the window would hold \(plan.modelCount) models; at most \(limits.maxModels)")
        }
        guard plan.contentCost <= limits.maxContentCost else {
            throw .limitsExceeded(
                "the window's content would be \(plan.contentCost) bytes; at most \(limits.maxContentCost)")
        }
        for step in tx.undo {
            switch step {
            case .pathAppended(let stack, _), .pathReplaced(let stack, _):
                guard stack.path.count <= limits.maxStackDepth else {
                    throw .limitsExceeded(
                        "a stack would hold \(stack.path.count) elements; at most \(limits.maxStackDepth)")
                }
            default:
                break
            }
        }
    }

    /// Counts a journaled change that changes nothing today (journals written before no-op changes were
    /// dropped hold such entries with a version of their own), so later entries keep their versions.
    package func advanceVersionForReplay() { version += 1 }

    /// Whether the transaction so far leaves the graph exactly as it was and reports nothing.
    private var changesNothing: Bool {
        guard tx.created.isEmpty, tx.unlinked.isEmpty, tx.messages.isEmpty, tx.effects.isEmpty, !tx.closing else {
            return false
        }
        return tx.undo.allSatisfy { step in
            switch step {
            case .created, .linked, .unlinked: false
            case .pathAppended(_, let count): count == 0
            case .pathDropped(_, let elements): elements.isEmpty
            case .pathReplaced(let stack, let old): stack.path == old
            case .pathElementReplaced(let stack, let index, let old): stack.path.indices.contains(index) && stack.path[index] == old
            case .slot(let presenter, let old): presenter.presented == old
            case .selectedTab(let tabs, let old): tabs.selectedTab == old
            case .selectedChild(let container, let old): container.selectedChild == old
            case .columnVisibility(let split, let old): split.columnVisibility == old
            case .collapsed(let split, let old): split.collapsed == old
            case .tabHistory(let tabs, let old): tabs.tabHistory == old
            case .paramsHistory(let node, let old): node.paramsHistory == old
            case .switched(let container, let old): container.switchedModel == old
            case .savedBranches(let container, let old): container.saved == old
            case .hung(let node, let parent, let attachment, let position):
                node.parent == parent && node.attachment == attachment && node.position == position
            case .root, .tags: false
            case .tag(let tag, let old): tags[tag] == old
            case .content(let node, let params, let title, _): node.params == params && node.title == title
            case .protection(let node, let old): node.protection == old
            case .appearance(let node, let old): node.appearance == old
            case .tabBarRule(let node, let hidden, let animated):
                node.hidesTabBarWhenNotAtRoot == hidden && node.hidesTabBarAnimated == animated
            case .scheduled(let old, _): scheduled == old
            case .forward(let old): forward == old
            case .rendererState(let node, let old, _): node.rendererState == old
            case .windowRendererState(let old): rendererState == old
            case .prepared(let old): prepared == old
            }
        }
    }

    private func rollback(nextID startID: Int) {
        for step in tx.undo.reversed() { undo(step) }
        // A close refused (a guard, a mark) leaves the window open: only a report closes it, and a report on a
        // closed window throws before it starts, so the window was open when this transaction began.
        if tx.closing { isClosed = false }
        nextID = startID
        tx = Transaction()
    }

    /// A point inside the current transaction to return to (checking what a dialog's actions would do).
    struct Savepoint {
        var undo, created, unlinked, modified, messages, effects, steps, keeping, nextID, costDelta, tagClaims: Int
        var closing: Bool
    }

    func savepoint() -> Savepoint {
        Savepoint(
            undo: tx.undo.count, created: tx.created.count, unlinked: tx.unlinked.count, modified: tx.modified.count,
            messages: tx.messages.count, effects: tx.effects.count, steps: tx.steps.count, keeping: tx.keeping.count,
            nextID: nextID, costDelta: tx.costDelta, tagClaims: tx.tagClaims.count, closing: tx.closing)
    }

    /// Undoes everything the transaction did since `point`, keeping what it did before.
    func rollback(to point: Savepoint) {
        while tx.undo.count > point.undo { undo(tx.undo.removeLast()) }
        if tx.closing, !point.closing { isClosed = false }
        tx.created.removeLast(tx.created.count - point.created)
        tx.unlinked.removeLast(tx.unlinked.count - point.unlinked)
        tx.modified.removeLast(tx.modified.count - point.modified)
        tx.modifiedSet = Set(tx.modified)
        tx.messages.removeLast(tx.messages.count - point.messages)
        tx.effects.removeLast(tx.effects.count - point.effects)
        tx.effectSources.removeLast(tx.effectSources.count - point.effects)
        tx.steps.removeLast(tx.steps.count - point.steps)
        tx.keeping.removeLast(tx.keeping.count - point.keeping)
        tx.closing = point.closing
        tx.costDelta = point.costDelta
        tx.tagClaims.removeLast(tx.tagClaims.count - point.tagClaims)
        nextID = point.nextID
    }

    private func undo(_ step: UndoStep) {
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
            case .selectedChild(let container, let old): container.selectedChild = old
            case .columnVisibility(let split, let old): split.columnVisibility = old
            case .collapsed(let split, let old): split.collapsed = old
            case .tabHistory(let tabs, let old): tabs.tabHistory = old
            case .paramsHistory(let node, let old): node.paramsHistory = old
            case .switched(let container, let old): container.switchedModel = old
            case .savedBranches(let container, let old): container.saved = old
            case .hung(let node, let parent, let attachment, let position):
                node.parent = parent
                node.attachment = attachment
                node.position = position
            case .root(let old): rootID = old
            case .tag(let tag, let old): tags[tag] = old
            case .tags(let old): tags = old
            case .content(let node, let params, let title, let cost):
                node.params = params
                node.title = title
                node.cost = cost
            case .protection(let node, let old): setProtection(node, old, journal: false)
            case .appearance(let node, let old): node.appearance = old
            case .tabBarRule(let node, let hidden, let animated):
                node.hidesTabBarWhenNotAtRoot = hidden
                node.hidesTabBarAnimated = animated
            case .scheduled(let old, let next):
                scheduled = old
                nextScheduleNumber = next
            case .forward(let old): forward = old
            case .rendererState(let node, let old, let cost):
                node.rendererState = old
                node.cost = cost
            case .windowRendererState(let old): rendererState = old
            case .prepared(let old): prepared = old
            }
    }

    private func commit(_ plan: CommitPlan, cause: ChangeCause, animated: Bool) -> ChangeEvent {
        version += 1
        if !prepared.isEmpty { expirePrepared(at: version) }
        let started = plan.started
        let finished = plan.removed.filter(\.started).map(\.id)
        for node in started { node.started = true }
        contentCost = plan.contentCost
        if !tx.closing {
            for node in plan.removed {
                nodes[node.id] = nil
                if node.protection != nil { marked.remove(node.id) }
                if let tag = node.tag, tags[tag] == node.id { tags[tag] = nil }
            }
        }
        // A scheduled batch goes with the model that scheduled it (only looked at when any is waiting).
        if !scheduled.isEmpty, !plan.removed.isEmpty { cancelScheduled(of: plan.removed) }

        var messages = tx.messages
        messages.append(contentsOf: finished.map { DeliveredMessage(recipient: $0, sender: nil, message: .finished) })
        messages.append(
            contentsOf: plan.suspended.map { DeliveredMessage(recipient: $0.id, sender: nil, message: .suspended) })
        messages.append(contentsOf: plan.resumed.map { DeliveredMessage(recipient: $0.id, sender: nil, message: .resumed) })
        let effects = zip(tx.effects, tx.effectSources).map { QueuedEffect(effect: $0, source: $1, version: version) }
        // A set only when it pays: most changes create a model or two, and hashing them costs more code per call
        // than comparing.
        let createdSet = tx.created.count > 8 ? Set(tx.created.map(\.id)) : nil
        let modified = tx.modified.filter { id in
            !(createdSet?.contains(id) ?? tx.created.contains { $0.id == id }) && nodes[id] != nil
        }
        var event = ChangeEvent(
            version: version, cause: cause, animated: animated, started: started.map(\.id), finished: finished,
            modified: modified, messages: messages, effects: effects, activeModel: activeModelID)
        event.steps = tx.steps
        event.suspended = plan.suspended.map(\.id)
        event.resumed = plan.resumed.map(\.id)
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
    /// Iterative, so deep presentation chains cannot overflow the stack. With `includingSaved`, a switched
    /// container's kept branches follow its children (snapshots, removal, index checks); without, they are
    /// not part of the walk, as they are not part of the live graph.
    func preorder(from start: Node, includingSaved: Bool = false, _ visit: (Node) -> Void) {
        var pending: [Node] = [start]
        while let node = pending.popLast() {
            visit(node)
            if includingSaved {
                for entry in node.saved.reversed() {
                    if let child = nodes[entry.model] { pending.append(child) }
                }
            }
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

/// Content a window shares with others (a session's windows share one budget), given to a change as input.
///
/// A budget may also carry the share of the client making the change: what its earlier changes created
/// (`clientCharged`) and the most any one client may have created (`clientShare`), so one client cannot
/// take the whole shared budget from the others.
public struct ContentBudget: Sendable, Hashable {
    /// The content cost of everything else that shares the budget.
    public var others: Int
    /// The most the window and the others may hold together.
    public var maximum: Int
    /// The content already charged to the client making the change (0 when no client is charged).
    public var clientCharged: Int
    /// The most content one client may be charged with; `Int.max` when the change is charged to no one.
    public var clientShare: Int

    /// Creates a budget.
    public init(others: Int, maximum: Int, clientCharged: Int = 0, clientShare: Int = .max) {
        self.others = others
        self.maximum = maximum
        self.clientCharged = clientCharged
        self.clientShare = clientShare
    }

    /// Why a window going from `current` to `cost` does not fit — the session's content over its maximum,
    /// or the client's charge over its share —, or nil when it does: the one rule, for a change here and for
    /// a window the session opens (`current` 0). A change that shrinks the window always fits.
    public func overrun(_ cost: Int, replacing current: Int = 0) -> String? {
        guard cost > current else { return nil }
        if others + cost > maximum {
            return "the session's content would be \(others + cost) bytes; at most \(maximum) across all windows"
        }
        let charged = clientCharged + (cost - current)
        if charged > clientShare {
            return "the client's content would be \(charged) bytes; at most \(clientShare) (per-client content share)"
        }
        return nil
    }

    /// Throws ``NavigationError/limitsExceeded(_:)`` when a change that grows the window's content from
    /// `current` to `cost` does not fit; a change that shrinks it always passes.
    func check(_ cost: Int, replacing current: Int) throws(NavigationError) {
        if let message = overrun(cost, replacing: current) { throw .limitsExceeded(message) }
    }
}

/// What a commit starts and removes (``NavigationWindow/transact(cause:animated:budget:dryRun:_:)``).
struct CommitPlan {
    var started: [Node]
    var removed: [Node]
    var contentCost: Int
    var modelCount: Int
    var suspended: [Node] = []
    var resumed: [Node] = []
}
