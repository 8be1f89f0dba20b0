#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NavigationCore
import NavigationRouting

/// Changing windows: batches, single commands, reports, messages, close-on-exit.
extension Session {
    /// Applies a batch atomically to a window (Session1 `Apply`): one change, one version bump.
    ///
    /// `switchModel` to a plain screen named like one of the scene's states builds that state.
    /// - Returns: the outcome; `windowVersion` is the new version, `events` starts with the `changed`
    ///   event (with planned steps when the route view moved by more than one step), then messages and
    ///   the events of effects the batch enqueued.
    /// - Parameter client: the caller's unique bus name, charged with the content the batch creates and the
    ///   windows its effects open (``SessionLimits/maxClientContentCost``); `nil` charges no one.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/limitsExceeded(_:)`` (also when its
    ///   `openWindow` commands would open more windows than may be open), ``SessionError/navigation(_:)``
    ///   (nothing applied), ``SessionError/storageFailed(_:)``.
    /// - Parameter expectedVersion: a compare-and-set, as for ``apply(window:batchJSON:expectedVersion:transaction:client:)``.
    @discardableResult
    public func apply(
        window number: WindowNumber, batch: [BatchCommand], expectedVersion: Int? = nil, client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        if let expectedVersion {
            let actual = try window(number).version
            guard expectedVersion == actual else {
                throw .versionMismatch(window: number, expected: expectedVersion, actual: actual)
            }
        }
        let (window, expanded) = try admitted(batch, to: number, client: client)
        return try acting(as: client) { () throws(SessionError) in
            var events: [SessionEvent] = []
            try applyChange(window, expanded, events: &events)
            return outcome(window: number, events: events)
        }
    }

    /// The one admission of a batch from `client` to window `number`, for applying it and for its dry run: the
    /// batch's size, the windows it would open and dismiss, its marks and schedules against the client's shares;
    /// then its commands expanded for the window's scene with the client stamped as the owner of its marks.
    func admitted(
        _ batch: [BatchCommand], to number: WindowNumber, client: String?
    ) throws(SessionError) -> (SessionWindow, [BatchCommand]) {
        let window = try window(number)
        // The window's policy first: a client that may not change it learns that, not which share it would exceed.
        try acting(as: client) { () throws(SessionError) in try checkPolicy(window) }
        guard batch.count <= limits.maxBatchCommands else {
            throw .limitsExceeded("a batch may hold at most \(limits.maxBatchCommands) commands")
        }
        try checkWindowsOpened(by: batch, client: client)
        try checkWindowsDismissed(by: batch, in: number)
        try checkMarkAndScheduleShares(of: batch, client: client)
        let scene = declaredScene(window.scene)
        var expanded: [BatchCommand] = []
        expanded.reserveCapacity(batch.count)
        for entry in batch { expanded.append(try stampingOwner(expand(entry, scene: scene), client: client)) }
        return (window, expanded)
    }

    /// Decodes a JSON array of commands (`Docs/state-schema.md`) and applies it like ``apply(window:batch:)``.
    ///
    /// - Parameter expectedVersion: a compare-and-set: unless the window is at exactly this version,
    ///   nothing is applied (two renderers or a renderer and a script sharing a window).
    /// - Throws: ``SessionError/invalidBatch(_:)`` with the decoder's message,
    ///   ``SessionError/versionMismatch(window:expected:actual:)``, else as ``apply(window:batch:)``.
    @discardableResult
    public func apply(
        window number: WindowNumber, batchJSON: String, expectedVersion: Int? = nil, transaction: JSONValue? = nil,
        client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        let batch = try decodeBatch(batchJSON, for: number, expectedVersion: expectedVersion, transaction: transaction)
        return try apply(window: number, batch: batch, client: client)
    }

    /// What ``apply(window:batchJSON:expectedVersion:)`` would do, without doing it: the change event it
    /// would produce (the next version, the ids of the models it would start) or the error it would throw.
    /// The session's limits are checked too (with `client`'s share); effects (opening windows, URLs) are not
    /// carried out.
    public func dryRun(
        window number: WindowNumber, batchJSON: String, expectedVersion: Int? = nil, transaction: JSONValue? = nil,
        client: String? = nil
    ) throws(SessionError) -> ChangeEvent {
        let batch = try decodeBatch(batchJSON, for: number, expectedVersion: expectedVersion, transaction: transaction)
        return try dryRun(window: number, batch: batch, client: client)
    }

    /// What ``apply(window:batch:expectedVersion:client:)`` would do with `batch`, without doing it (`Check`,
    /// `BeginBack`).
    public func dryRun(
        window number: WindowNumber, batch: [BatchCommand], client: String? = nil
    ) throws(SessionError) -> ChangeEvent {
        let (window, expanded) = try admitted(batch, to: number, client: client)
        return try acting(as: client) { () throws(SessionError) in
            do throws(NavigationError) {
                return try gated(window) { () throws(NavigationError) in
                    try window.graph.dryRun(expanded, budget: contentBudget(for: window))
                }
            } catch {
                throw .navigation(error)
            }
        }
    }

    /// A batch's JSON as commands, checked against `expectedVersion`, with `Apply`'s `transaction` option (when
    /// given) as its last entry: a batch that carries a `transaction` entry already is then refused (one payload
    /// per change).
    private func decodeBatch(
        _ batchJSON: String, for number: WindowNumber, expectedVersion: Int?, transaction: JSONValue?
    ) throws(SessionError) -> [BatchCommand] {
        let window = try window(number)
        var batch: [BatchCommand]
        do throws(JSONInput.Failure) {
            batch = try JSONInput.decode([BatchCommand].self, from: batchJSON, limit: limits.maxJSONBytes)
        } catch {
            throw error.tooLong ? .limitsExceeded(error.message) : .invalidBatch(error.message)
        }
        if let expectedVersion, expectedVersion != window.version {
            throw .versionMismatch(window: number, expected: expectedVersion, actual: window.version)
        }
        if let transaction {
            guard batch.transactionPayload == nil else {
                throw .invalidArguments(
                    "the batch carries a \"transaction\" entry and the transaction option was given: one payload per change")
            }
            batch.append(BatchCommand(.transaction(transaction)))
        }
        return batch
    }

    /// Loads a whole window state (Window1 `SetState`, a fixture's starting point) as one change.
    ///
    /// `stateJSON` is a window snapshot (`GetState`'s form, Docs/state-schema.md), validated exactly like a
    /// restore; its models get fresh ids. The change is made durable by writing a full session snapshot
    /// (not a journal line), so its cost grows with the session: a method for tests and fixtures.
    /// - Throws: ``SessionError/invalidArguments(_:)`` (not a valid snapshot), ``SessionError/limitsExceeded(_:)``,
    ///   ``SessionError/navigation(_:)`` (e.g. an undeclared screen), ``SessionError/storageFailed(_:)``.
    /// - Parameter client: charged with the content the state adds (``SessionLimits/maxClientContentCost``).
    @discardableResult
    public func setState(
        window number: WindowNumber, stateJSON: String, client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in try setState(window: number, stateJSON: stateJSON) }
    }

    private func setState(window number: WindowNumber, stateJSON: String) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        let snapshot: WindowSnapshot
        do throws(JSONInput.Failure) {
            snapshot = try JSONInput.decode(WindowSnapshot.self, from: stateJSON, limit: limits.maxJSONBytes)
        } catch {
            throw error.tooLong ? .limitsExceeded(error.message) : .invalidArguments("state_json: \(error.message)")
        }
        let event = try change(window) { graph, budget throws(NavigationError) in
            try graph.setState(snapshot, budget: budget)
        }
        restartHistory(of: window)  // A whole state is not redone from a journal entry.
        if let store, !replaying {
            do {
                try store.writeSnapshot(storedState())
                needsSnapshot = false
            } catch {
                needsSnapshot = true
                throw error
            }
        }
        var events: [SessionEvent] = []
        afterChange(window, event, events: &events)
        return outcome(window: number, events: events)
    }

    /// Executes one command from model `from` (`nil`: the active model) as one change (the Window1 methods).
    /// - Throws: as ``apply(window:batch:)``; the error is the command's own (not `batchCommandFailed`).
    @discardableResult
    public func execute(
        window number: WindowNumber, command: NavigationCommand, from: ModelID? = nil, animated: Bool = true,
        client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        try apply(window: number, batch: [BatchCommand(command, from: from, animated: animated)], client: client)
    }

    /// Decodes one command's JSON and executes it (Window1 `ExecuteAt`; model 0 means the active model).
    /// - Throws: ``SessionError/invalidCommand(_:)`` for bad JSON, else as ``execute(window:command:from:animated:)``.
    @discardableResult
    public func execute(
        window number: WindowNumber, commandJSON: String, from: ModelID? = nil, client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        _ = try window(number)
        let entryFromJSON: BatchCommand
        do throws(JSONInput.Failure) {
            entryFromJSON = try JSONInput.decode(BatchCommand.self, from: commandJSON, limit: limits.maxJSONBytes)
        } catch {
            throw error.tooLong ? .limitsExceeded(error.message) : .invalidCommand(error.message)
        }
        var entry = entryFromJSON
        if let from, from.rawValue != 0 { entry.from = .id(from) }
        return try apply(window: number, batch: [entry], client: client)
    }

    /// Applies a renderer report (Window1 `Report*`); `windowClosed` closes the window like ``dismissWindow(_:)``.
    /// - Parameter client: charged with what the report's change creates (a chosen dialog action's commands).
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/navigation(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func report(
        window number: WindowNumber, _ report: RendererReport, client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        // Only a window's primary renderer reports what the user did (a registered mirror does not).
        try checkReporter(client, on: try window(number))
        if case .windowClosed = report { return try dismissWindow(number, client: client) }
        return try acting(as: client) { () throws(SessionError) in try applyReport(report, to: number) }
    }

    private func applyReport(_ report: RendererReport, to number: WindowNumber) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        if case .alertActionChosen(let alert, let action) = report, let pending = pendingReapply[number]?[alert] {
            pendingReapply[number]?[alert] = nil
            if reapplies(action, of: alert, in: window) {
                return try reapply(pending, closing: alert, action: action, in: window)
            }
        }
        var events: [SessionEvent] = []
        try checkHistoryShare()
        // A report is the renderer's account of what the user did: it is not held to a content budget.
        let event = try change(window) { graph, _ throws(NavigationError) in try graph.report(report) }
        guard !event.isNoOp else { return outcome(window: number, events: events) }
        try persist(.report(window: number, report: report, version: event.version))
        afterChange(window, event, events: &events)
        return outcome(window: number, events: events)
    }

    /// Delivers an application message to a model right away (Window1 `SendMessage`); no version bump.
    /// - Parameter client: the sender, held to its message rate (``SessionLimits/clientMessages``,
    ///   ``SessionLimits/clientMessageBytes``); `nil` is not limited.
    /// - Returns: the outcome with the `message` event.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/limitsExceeded(_:)`` (too large, or over
    ///   the client's rate), ``SessionError/navigation(_:)`` (unknown model).
    @discardableResult
    public func sendMessage(
        window number: WindowNumber, to model: ModelID, _ message: NavigationMessage, client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        let window = try window(number)
        guard message.name.utf8.count <= limits.graph.maxNameBytes, message.payload.utf8.count <= limits.maxMessageBytes else {
            throw .limitsExceeded(
                "a message name is limited to \(limits.graph.maxNameBytes) bytes and its payload to \(limits.maxMessageBytes)")
        }
        try takeMessage(of: message.name.utf8.count + message.payload.utf8.count, from: client)
        do {
            try window.graph.sendMessage(message, to: model)
        } catch {
            throw .navigation(error)
        }
        let events = window.graph.drainMessages().map { SessionEvent.message(number, $0) }
        return outcome(window: number, events: events)
    }

    /// Ties a window to a client (Session1 `SetCloseOnExit`); `owner: nil` unties it.
    ///
    /// The tie is persisted. After a daemon restart the D-Bus layer should check each owner
    /// (`NameHasOwner`) and call ``clientVanished(uniqueName:)`` for those gone.
    ///
    /// A window tied to one client can be untied or re-tied only by that client: another client could
    /// otherwise keep a window alive after its owner exits, or make it close with the wrong process.
    /// - Parameter caller: the client asking (its unique name); `nil` skips the ownership check.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/accessDenied(_:)`` (tied to
    ///   another client), ``SessionError/storageFailed(_:)``.
    public func setCloseOnExit(window number: WindowNumber, owner: String?, caller: String? = nil) throws(SessionError) {
        let window = try window(number)
        try acting(as: caller) { () throws(SessionError) in try checkPolicy(window) }
        if let current = window.closeOnExitOwner, let caller, current != caller {
            throw .accessDenied("window \(number) is tied to \(current); only that client may change the tie")
        }
        guard window.closeOnExitOwner != owner else { return }
        window.closeOnExitOwner = owner
        try persist(.closeOnExit(window: number, owner: owner))
    }

    /// Closes every window tied to `uniqueName` (NameOwnerChanged with an empty new owner) and forgets what
    /// was charged to it: what it created stays, counted only in the session's ceiling.
    /// - Returns: the outcome; ``SessionOutcome/closedWindows`` lists exactly that client's windows.
    /// - Throws: ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func clientVanished(uniqueName: String) throws(SessionError) -> SessionOutcome {
        clientBudgets.forget(uniqueName)
        clientApps[uniqueName] = nil
        forgetGuards(of: uniqueName)
        var events: [SessionEvent] = []
        // Marks first: a window tied to the same client then closes without its own marks in the way.
        try dropMarks(of: uniqueName, events: &events)
        forgetScheduledAuthor(uniqueName, events: &events)
        for window in windows where window.closeOnExitOwner == uniqueName {
            try dismissWindow(window.number, guarded: false, events: &events)
        }
        return outcome(window: nil, events: events)
    }

    // MARK: Internals

    /// Applies an already expanded batch, journals it, and handles what follows.
    ///
    /// A batch refused by an entry condition (``NavigationError/entryRefused(screen:state:actual:)``) is not an
    /// error: the screen's redirect runs instead and the batch waits (``redirect(_:_:screen:state:resumed:events:)``).
    /// A batch refused by a protection mark presents the mark's dialog when it names one, then fails.
    /// - Parameter resumed: the pending navigation this batch completes (its cause says so).
    /// - Returns: the change, or `nil` when the batch was redirected.
    @discardableResult
    func applyChange(
        _ window: SessionWindow, _ batch: [BatchCommand], resumed: PendingNavigation? = nil,
        events: inout [SessionEvent]
    ) throws(SessionError) -> ChangeEvent? {
        // A move changes two windows: the session carries it out (it is journaled as a move, never as a batch).
        if !replaying, let move = Self.soleMove(in: batch) {
            return try applyMove(
                window, model: move.model, toWindow: move.toWindow, placement: move.placement, from: move.from, events: &events)
        }
        // `schedule` gets its absolute deadline now, so the journal line replays the same one.
        let batch = replaying ? batch : window.graph.withDeadlines(batch)
        try checkHistoryShare()
        let event: ChangeEvent
        let before = window.graph.contentCost
        do {
            event = try gated(window) { () throws(NavigationError) in
                try window.graph.apply(batch, budget: contentBudget(for: window))
            }
        } catch {
            if case .entryRefused(let screen, let state, _) = error {
                try redirect(window, batch, screen: screen, state: state, resumed: resumed != nil, events: &events)
                return nil
            }
            noteRefusal(error, in: window.number)
            presentGuardDialog(for: error, in: window, batch: batch)
            throw .navigation(error)
        }
        guard !event.isNoOp else { return event }
        charge(window, contentBefore: before)
        // One encoding of the batch serves both the journal line and the `Changed` signal's cause (they were
        // the two largest encoding costs per call). A replay announces nothing, so encodes nothing.
        let encoded = replaying ? nil : SessionStore.encodeBatch(batch)
        try persist(.batch(window: window.number, batch: batch, version: event.version), encodedBatch: encoded)
        var cause = encoded.map(JournalLine.cause(encodedBatch:))
        if let resumed, let plain = cause {
            cause = String(plain.dropLast()) + #","resumed":"# + resumed.json(state: resumed.state(in: manifest, scene: manifest.scene(window.scene))) + "}"
        }
        afterChange(window, event, causeJSON: cause, events: &events)
        return event
    }

    /// Records the change, its messages and effects, then resumes a waiting deep link if it now applies.
    /// - Parameter causeJSON: the cause's JSON when the caller already encoded it (with the journal line).
    func afterChange(
        _ window: SessionWindow, _ event: ChangeEvent, causeJSON: String? = nil, events: inout [SessionEvent]
    ) {
        touch(window)
        if !window.graph.scheduled.isEmpty || !scheduledWindows.isEmpty { noteScheduled(window) }
        events.append(.changed(
            window.number, event, steps: Self.rendererSteps(of: event, for: window, limits: limits),
            causeJSON: self.causeJSON(of: event, encoded: causeJSON)))
        // `Changed.finished` already names every finished model: one signal however many models a change
        // removes, instead of one `Message` per model (Docs/dbus-api.md, "Message").
        for message in window.graph.drainMessages() where !message.isLifecycleFinish {
            events.append(.message(window.number, message))
        }
        if !replaying, !window.renderers.isEmpty {
            let planned = rendererSteps(of: event, in: window)
            if !planned.isEmpty { events.append(.rendererSteps(window.number, version: event.version, planned)) }
        }
        if !replaying, let announcement = announcement(of: event, in: window) {
            window.announcedFocus = announcement.focus
            window.lastAnnouncement = announcement
            events.append(.announcement(window.number, announcement))
        } else if replaying {
            window.announcedFocus = event.activeModel
        }
        handleEffects(of: window, events: &events)
        resumePending(in: window, events: &events)
    }

    /// `Changed`'s `cause_json` of `event`: `encoded` when the journal line already encoded it, else encoded
    /// here; `""` during a replay, which announces nothing.
    func causeJSON(of event: ChangeEvent, encoded: String? = nil) -> String {
        replaying ? "" : encoded ?? Self.causeJSON(event.cause)
    }

    /// A cause's JSON: a batch's through the journal's direct writer when it can (the same bytes), else encoded.
    static func causeJSON(_ cause: ChangeCause) -> String {
        if case .commands(let batch) = cause, let encoded = JournalLine.encodeDirect(batch) {
            return JournalLine.cause(encodedBatch: encoded)
        }
        return JSONOutput.string(cause)
    }

    /// The change's graph steps shaped for the window's renderer, within the bound on what one change
    /// may carry: over it, pushes and layers are combined; over it even then, `[]` (show the new state).
    static func rendererSteps(of event: ChangeEvent, for window: SessionWindow, limits: SessionLimits) -> [NavigationStep] {
        let bound = limits.maxPlannedRouteEntries
        guard event.steps.reduce(0, { $0 + $1.size }) <= bound else { return [] }
        let shaped = NavigationStep.shaped(event.steps, for: window.capabilities.steps)
        if shaped.reduce(0, { $0 + $1.size }) <= bound { return shaped }
        return event.steps
    }

    /// Carries out the effects a change enqueued; failures become `effectFailed` events, never errors.
    func handleEffects(of window: SessionWindow, events: inout [SessionEvent]) {
        let effects = window.graph.drainEffects()
        guard !effects.isEmpty else { return }
        effectDepth += 1
        defer { effectDepth -= 1 }
        for queued in effects {
            let number = window.number
            do throws(SessionError) {
                guard effectDepth <= Self.maximumEffectDepth else {
                    throw .limitsExceeded("effects nested deeper than \(Self.maximumEffectDepth)")
                }
                switch queued.effect {
                case .openWindow(let scene, let params):
                    _ = try openWindow(scene: scene, params: params, events: &events)
                case .dismissWindow(let id):
                    try dismissWindowWithGroup(try Self.windowNumber(id, default: number), events: &events)
                case .openURL(let url):
                    _ = try openURL(url, source: number, events: &events)
                case .trigger(let name, let payload):
                    events.append(.trigger(number, name: name, payload: payload))
                }
            } catch {
                // Not logged here: whoever carries out the events (the daemon) reports and logs it once.
                events.append(.effectFailed(number, queued.effect, error))
            }
        }
    }

    /// A `dismissWindow` effect's id: a number or an object path ending in `/<n>`; `nil` is this window.
    static func windowNumber(_ id: String?, default number: WindowNumber) throws(SessionError) -> WindowNumber {
        guard let id else { return number }
        let last = id.split(separator: "/").last.map(String.init) ?? id
        guard let parsed = WindowNumber(last) else { throw .invalidArguments("'\(id)' is not a window number") }
        return parsed
    }
}
