import Logging
import NavigationCore

/// Changing the application's manifest while it runs (Session1 `CheckManifest`, `ReloadManifest`, `SIGHUP`) or between
/// runs (a start with another manifest): every window migrated as the new manifest declares
/// (``ManifestMigration``), as one change per window with a `replaceRoot` step to its renderers, and the whole state
/// written at once with the manifest it is now under (Docs/manifest.md, "Changing the manifest").
extension Session {
    /// What ``reloadManifest(_:client:)`` would do, changing nothing: `{"applicationID":"…","windows":[<plan>…],
    /// "closedWindows":[<plan>…],"sessions":[{"name":"work","windows":[<plan>…]}]}`, each plan as
    /// ``ManifestMigration/Plan/json(window:scene:)`` writes it.
    /// - Throws: ``SessionError/manifest(_:)`` (it does not validate, or names another application).
    public func checkManifest(_ text: String) throws(SessionError) -> String {
        let candidate = try candidateManifest(text)
        let migration = ManifestMigration(manifest: candidate)
        let open = windows.map { migration.plan($0.graph.snapshot(), scene: $0.scene).json(window: $0.number, scene: $0.scene) }
        let closed = recentlyClosed.map { migration.plan($0.snapshot, scene: $0.scene).json(window: $0.number, scene: $0.scene) }
        let sessions = savedSessions.map { session in
            #"{"name":"# + JSONString.literal(session.name) + #","windows":["#
                + session.windows.enumerated().map { index, window in
                    migration.plan(window.snapshot, scene: window.scene).json(window: UInt32(index + 1), scene: window.scene)
                }.joined(separator: ",") + "]}"
        }
        return #"{"applicationID":"# + JSONString.literal(candidate.applicationID) + #","windows":["#
            + open.joined(separator: ",") + #"],"closedWindows":["# + closed.joined(separator: ",") + #"],"sessions":["#
            + sessions.joined(separator: ",") + "]}"
    }

    /// Serves `text` as the manifest from now on: every window migrated (one change each, cause `{"reloaded":true}`,
    /// a `replaceRoot` step; a window whose scene is gone closes), the recently closed windows and named sessions
    /// migrated too, undo history started again, and the state written whole under the new manifest (one atomic
    /// write: a crash leaves the old manifest's state or the new one's). No guard is asked: the application changed.
    /// The text of the manifest served already changes nothing.
    /// - Throws: ``SessionError/manifest(_:)`` (nothing changes), ``SessionError/storageFailed(_:)`` (the state
    ///   is migrated in memory and written with the next change).
    @discardableResult
    public func reloadManifest(_ text: String, client: String? = nil) throws(SessionError) -> SessionOutcome {
        let candidate = try candidateManifest(text)
        // The manifest served already: nothing to do (no change, no write).
        guard candidate.json != manifest.json else { return outcome(window: nil, events: []) }
        return try acting(as: client) { () throws(SessionError) in
            var events: [SessionEvent] = []
            migrate(to: candidate, events: &events)
            events.append(.manifestReloaded)
            if let store {
                do throws(SessionError) {
                    try writeCleanSnapshot(store)
                } catch {
                    needsSnapshot = true
                    throw error
                }
            }
            return outcome(window: nil, events: events)
        }
    }

    /// `text` as a manifest this session may take: valid, and of the same application.
    func candidateManifest(_ text: String) throws(SessionError) -> Manifest {
        let candidate: Manifest
        do {
            candidate = try Manifest(json: text)
        } catch {
            throw .manifest(error)
        }
        guard candidate.applicationID == manifest.applicationID else {
            throw .manifest(.invalidValue(
                key: "id", detail: "the manifest is of \(candidate.applicationID); this session serves \(manifest.applicationID)"))
        }
        return candidate
    }

    /// Migrates everything to `new` in memory (nothing journaled: the caller writes the whole state).
    func migrate(to new: Manifest, events: inout [SessionEvent]) {
        let migration = ManifestMigration(manifest: new)
        let plans = windows.map { ($0, migration.plan($0.graph.snapshot(), scene: $0.scene)) }
        manifest = new
        for (window, plan) in plans {
            let number = window.number
            guard plan.action != .close, let replacement = migrated(window, plan, events: &events) else {
                removeWindow(number)
                order.removeAll { $0 == number }
                version += 1
                events.append(.windowClosed(number, scene: window.scene))
                logger.notice(
                    "the new manifest closes a window", metadata: ["window": "\(number)", "reason": "\(plan.reason ?? "")"])
                continue
            }
            replaceWindow(replacement)
        }
        recentlyClosed = recentlyClosed.compactMap { closed in
            let plan = migration.plan(closed.snapshot, scene: closed.scene)
            switch plan.action {
            case .keep: return closed
            case .migrate: return plan.state.map { closed.with(snapshot: $0, activeScreen: activeScreen(of: $0, scene: closed.scene), manifest: new) }
            case .reset, .close: return nil
            }
        }
        savedSessions = savedSessions.compactMap { saved in
            var session = saved
            session.windows = saved.windows.compactMap { window in
                let plan = migration.plan(window.snapshot, scene: window.scene)
                switch plan.action {
                case .keep: return window
                case .migrate:
                    var changed = window
                    guard let state = plan.state else { return nil }
                    changed.snapshot = state
                    changed.activeScreen = activeScreen(of: state, scene: window.scene) ?? window.activeScreen
                    changed.title = manifest.screen(changed.activeScreen)?.title ?? changed.activeScreen
                    return changed
                case .reset, .close: return nil
                }
            }
            return session.windows.isEmpty ? nil : session
        }
        // Providers of guards the manifest no longer declares are forgotten; the gates watch the new guards.
        guardProviders.providers = guardProviders.providers.filter { new.guards[$0.key] != nil }
        refreshGates()
    }

    /// `window` under the new manifest: its graph made again with the new configuration and brought to the plan's
    /// state as one change (its event appended), its history started again; `nil` when it cannot stay.
    private func migrated(_ window: SessionWindow, _ plan: ManifestMigration.Plan, events: inout [SessionEvent]) -> SessionWindow? {
        let old = window.graph.snapshot()
        let graph: NavigationWindow
        do {
            graph = try NavigationWindow(snapshot: old, configuration: windowConfiguration(scene: window.scene), logger: logger)
        } catch {
            logger.warning("a window cannot be read under the new manifest", metadata: ["window": "\(window.number)", "error": "\(error)"])
            return nil
        }
        var target: WindowSnapshot?
        switch plan.action {
        case .keep: target = nil
        case .migrate: target = plan.state
        case .reset: target = freshState(of: window.scene, above: old)
        case .close: return nil
        }
        var event: ChangeEvent?
        if let target {
            do {
                event = try graph.restore(target, cause: .reloaded, budget: nil)
            } catch {
                logger.warning("a window cannot take its migrated state", metadata: ["window": "\(window.number)", "error": "\(error)"])
                guard plan.action != .reset, let fresh = freshState(of: window.scene, above: old),
                    let reset = try? graph.restore(fresh, cause: .reloaded, budget: nil)
                else { return nil }
                event = reset
            }
        }
        let replacement = SessionWindow(
            number: window.number, scene: window.scene, graph: graph, capabilities: manifest.capabilities(of: window.scene),
            lastActivity: window.lastActivity)
        replacement.closeOnExitOwner = window.closeOnExitOwner
        // A waiting deep link is asked again under the new routes; waiting commands name screens as they were.
        if case .deepLink? = window.pending { replacement.pending = window.pending }
        if let event {
            _ = graph.drainEffects()
            _ = graph.drainMessages()
            events.append(.changed(
                window.number, event, steps: Self.rendererSteps(of: event, for: replacement, limits: limits),
                causeJSON: causeJSON(of: event)))
        }
        return replacement
    }

    /// The active screen of a migrated state that is not open (a closed window's, a saved one's); `nil` when it
    /// does not load.
    private func activeScreen(of state: WindowSnapshot, scene: String) -> String? {
        guard let graph = try? NavigationWindow(snapshot: state, configuration: windowConfiguration(scene: scene), logger: logger)
        else { return nil }
        return graph.screen(of: graph.activeModelID)
    }

    /// The scene's root under the current manifest, its ids above every id `old` used (ids are never reused).
    private func freshState(of scene: String, above old: WindowSnapshot) -> WindowSnapshot? {
        guard let spec = manifest.scene(scene)?.rootStructure,
            let fresh = try? NavigationWindow(root: spec, configuration: windowConfiguration(scene: scene), logger: logger)
        else { return nil }
        let state = fresh.snapshot()
        var map: [ModelID: ModelID] = [:]
        for (offset, model) in state.models.enumerated() { map[model.id] = ModelID(rawValue: old.nextModelID + offset) }
        let models = state.models.map { WindowSnapshot.remapped($0, map) }
        return old.replacing(
            models: models, scheduled: [], forward: [], root: map[state.root] ?? state.root,
            nextModelID: old.nextModelID + models.count)
    }

    /// Puts `window` in place of the open window with its number, keeping who opened it (its client's share).
    private func replaceWindow(_ window: SessionWindow) {
        if let old = windowsByNumber[window.number] {
            old.graph.contentLedger = nil
            historyBytes -= old.history.bytes
        }
        window.graph.contentLedger = contentLedger
        window.graph.wallClock = clock.wallMilliseconds
        installGate(on: window)
        setWindow(window)
        historyBytes += window.history.bytes
        if !window.graph.scheduled.isEmpty { noteScheduled(window) }
    }
}

extension ClosedWindow {
    /// The same entry with another snapshot and active screen (a manifest migration's); its title that screen's.
    func with(snapshot: WindowSnapshot, activeScreen screen: String?, manifest: Manifest? = nil) -> ClosedWindow {
        var entry = self
        entry.snapshot = snapshot
        if let screen, screen != activeScreen {
            entry.activeScreen = screen
            entry.title = manifest?.screen(screen)?.title ?? screen
        }
        entry.bytes = ClosedWindow.bytes(of: snapshot)
        return entry
    }
}
