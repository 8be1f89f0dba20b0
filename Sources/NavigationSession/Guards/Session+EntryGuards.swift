import Logging
import NavigationCore

/// Entry guards and redirects (Docs/guards.md): a change that would start a screen whose `requires` does not hold
/// runs the screen's `redirect` instead (one change) and waits in the window until the condition holds.
extension Session {
    /// Handles a batch refused because it would start `screen`, which requires `state`: the screen's redirect is
    /// applied as one change (its cause names the refused batch, `{"commands":[redirect],"redirected":{…}}`) and
    /// the batch becomes the window's pending navigation, replacing any other. Nothing else changes.
    ///
    /// A batch that was itself a pending navigation completing (`resumed`) is kept again without a redirect.
    /// - Throws: the redirect's own error (``SessionError/navigation(_:)``; nothing changes and nothing waits),
    ///   ``SessionError/storageFailed(_:)``.
    func redirect(
        _ window: SessionWindow, _ batch: [BatchCommand], screen: String, state: String, resumed: Bool,
        events: inout [SessionEvent]
    ) throws(SessionError) {
        let pending = PendingNavigation.commands(batch, screen: screen, state: state)
        let redirect = resumed ? [] : (manifest.screen(screen)?.redirect ?? [])
        try wait(pending, state: state, in: window, redirect: redirect, events: &events)
    }

    /// Makes `pending` the window's pending navigation after applying `redirect` (if any) as one change whose
    /// cause names what waits (`{"commands":[redirect],"redirected":{…}}`): the one path of a refused screen
    /// entry and of a deep link whose route's (or scene's) state is not shown.
    /// - Throws: the redirect's own error (``SessionError/navigation(_:)``; nothing changes and nothing waits),
    ///   ``SessionError/storageFailed(_:)``.
    func wait(
        _ pending: PendingNavigation, state: String, in window: SessionWindow, redirect: [BatchCommand],
        events: inout [SessionEvent]
    ) throws(SessionError) {
        guard !redirect.isEmpty else {
            try setPending(pending, in: window)
            return
        }
        let scene = manifest.scene(window.scene)
        let expanded = redirect.map { expand($0, scene: scene) }
        let event = try change(window) { graph, budget throws(NavigationError) in try graph.apply(expanded, budget: budget) }
        try setPending(pending, in: window)
        guard !event.isNoOp else { return }
        let encoded = replaying ? nil : SessionStore.encodeBatch(expanded)
        try persist(.batch(window: window.number, batch: expanded, version: event.version), encodedBatch: encoded)
        let cause = encoded.map { bytes in
            String(JournalLine.cause(encodedBatch: bytes).dropLast()) + #","redirected":"# + pending.json(state: state) + "}"
        }
        afterChange(window, event, causeJSON: cause, events: &events)
    }

    /// Makes `pending` the window's pending navigation (a newer one replaces the older) and journals it.
    func setPending(_ pending: PendingNavigation?, in window: SessionWindow) throws(SessionError) {
        touch(window)
        guard window.pending != pending else { return }
        window.pending = pending
        switch pending {
        case .deepLink(let url): try persist(.pendingDeepLink(window: window.number, url: url))
        case .commands(let batch, let screen, let state):
            try persist(.pendingCommands(window: window.number, batch: batch, screen: screen, state: state))
        case nil: try persist(.pendingDeepLink(window: window.number, url: nil))
        }
    }

    /// Drops the window's pending navigation, if any (Window1 `CancelPending`); no version bump.
    /// - Returns: the outcome (no events); ``SessionOutcome/window`` is the window.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func cancelPending(window number: WindowNumber, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            let window = try window(number)
            try checkPolicy(window)
            if window.pending != nil { try setPending(nil, in: window) }
            return outcome(window: number, events: [])
        }
    }

    /// Window1 `PendingNavigation`: the window's pending navigation as JSON, `""` when none.
    public func pendingNavigationJSON(window number: WindowNumber) throws(SessionError) -> String {
        let window = try window(number)
        guard let pending = window.pending else { return "" }
        return pending.json(state: pending.state(in: manifest, scene: manifest.scene(window.scene)))
    }

    /// Completes the window's pending navigation once its switched root shows the state it waits for, as a
    /// change of its own (its cause carries `"resumed"`); a failure drops it with an `effectFailed` event
    /// (a deep link) or a warning (commands whose models are gone).
    func resumePending(in window: SessionWindow, events: inout [SessionEvent]) {
        guard let pending = window.pending, windowsByNumber[window.number] != nil,
            let state = pending.state(in: manifest, scene: manifest.scene(window.scene)), window.currentState == state
        else { return }
        do throws(SessionError) {
            try setPending(nil, in: window)
            // It waited in the session; whoever's change let it through did not ask for what it creates.
            try acting(as: nil) { () throws(SessionError) in
                switch pending {
                case .deepLink(let url): try resumeDeepLink(url, in: window, events: &events)
                case .commands(let batch, _, _): try applyChange(window, batch, resumed: pending, events: &events)
                }
            }
        } catch {
            logger.warning(
                "pending navigation failed", metadata: ["window": "\(window.number)", "error": "\(error.message)"])
            if case .deepLink(let url) = pending { events.append(.effectFailed(window.number, .openURL(url), error)) }
        }
    }
}
