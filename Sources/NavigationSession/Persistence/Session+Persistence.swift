import Logging
import NavigationCore

/// Journaling changes, compacting into snapshots, and restoring on start.
extension Session {
    private struct ReplayFailure: Error {
        var reason: String
    }

    /// Writes a new snapshot, empties the journal and lets go of the state directory's lock (clean shutdown:
    /// another daemon may take the directory over); no-op without a store. A change after `close()` takes the
    /// lock again, or fails with ``SessionError/stateDirectoryLocked(path:holder:)`` if another process has it.
    /// - Throws: ``SessionError/storageFailed(_:)``; the lock is then kept.
    public func close() throws(SessionError) {
        guard let store else { return }
        try writeCleanSnapshot(store)
        store.endRun()
        store.releaseLock()
    }

    /// A fresh pair of files that replays to exactly this state.
    func writeCleanSnapshot(_ store: SessionStore) throws(SessionError) {
        try store.writeSnapshot(storedState())
        needsSnapshot = false
        store.journalNeedsRestart = false
    }

    /// Journals one change; returns once it is written. After a failed write, the next change writes a
    /// whole snapshot instead (the journal would no longer replay).
    ///
    /// - Parameter encodedBatch: for a `.batch` entry, its batch already encoded (``SessionStore/encodeBatch(_:)``).
    /// - Parameter cause: the change's cause when the entry alone does not give it back (a scheduled run).
    func persist(_ entry: JournalEntry, encodedBatch: [UInt8]? = nil, cause: ChangeCause? = nil) throws(SessionError) {
        guard !replaying else { return }
        // The window's history, with the time written on the journal line too.
        let time: Int64? = entry.windowVersion == nil && !entry.isMove ? nil : clock.wallMilliseconds()
        if case .move(let from, let to) = entry {
            // Each window's history holds its own part.
            for part in [from, to] where part.windowVersion != nil { recordHistory(part, cause: nil, time: time) }
        } else if time != nil {
            recordHistory(entry, cause: cause, time: time, encodedBatch: encodedBatch)
        }
        if case .scheduledDropped(let number, let id) = entry { recordScheduledDrop(window: number, id: id) }
        // A window's opening and closing carry their time too, for the statistics; counted before the line is written
        // so a compaction it causes snapshots them.
        let stamp = time ?? (Self.isLifecycle(entry) ? clock.wallMilliseconds() : nil)
        recordStatistics(entry, time: stamp)
        guard let store else { return }
        if !store.files.isLocked { try store.files.lock() }
        if let loss = store.lossOfFiles() {
            // Journal lines written now would go to files no restart reads: start again where one does, with a
            // full snapshot of the state (this change included), so nothing acknowledged is lost.
            logger.error(
                "the session's files were removed while running; writing them again in full",
                metadata: ["cause": "\(loss)", "directory": "\(store.directory)"])
            do {
                try store.reopenFiles()
            } catch {
                needsSnapshot = true
                throw error
            }
            needsSnapshot = true
        }
        if needsSnapshot {
            try store.writeSnapshot(storedState())
            needsSnapshot = false
            return
        }
        do {
            try store.append(entry, encodedBatch: encodedBatch, time: stamp)
        } catch {
            needsSnapshot = true
            throw error
        }
        if store.compactionDue {
            do {
                try store.writeSnapshot(storedState())
            } catch {
                // The change itself is in the journal; compaction is retried after the next change.
                logger.warning("session compaction failed", metadata: ["error": "\(error.message)"])
            }
        }
    }

    func storedState() -> StoredSession {
        StoredSession(
            format: StoredSession.formatName, formatVersion: StoredSession.formatVersion,
            applicationID: manifest.applicationID, generation: 0, sessionVersion: version,
            nextWindow: nextWindowNumber,
            windows: windows.map {
                StoredWindow(
                    number: $0.number, scene: $0.scene, lastActivity: $0.lastActivity,
                    closeOnExitOwner: $0.closeOnExitOwner, pendingDeepLink: $0.pendingDeepLink,
                    pendingCommands: StoredPendingCommands($0.pending),
                    snapshot: $0.graph.snapshot(), history: storedHistory(of: $0), group: $0.group, policy: $0.policy)
            },
            closed: recentlyClosed.isEmpty ? nil : recentlyClosed.map(StoredClosedWindow.init),
            sessions: savedSessions.isEmpty ? nil : savedSessions.map(StoredNamedSession.init),
            // The manifest this state is under, kept beside it (written once; before the snapshot names it).
            manifest: manifest.json.flatMap { try? store?.keepManifest($0) },
            stats: statistics.since == nil ? nil : statistics)
    }

    func restore(from store: SessionStore) throws(SessionError) {
        let loaded = try store.load(applicationID: manifest.applicationID)
        // State written under another manifest is read under that one, then migrated to this one (Docs/manifest.md,
        // "Changing the manifest"): its journal replays as it was written.
        let current = manifest
        let currentName = current.json.map(SessionStore.manifestFileName(for:))
        if let name = loaded.snapshot?.manifest, name != currentName, let text = store.keptManifest(name) {
            do {
                let stored = try Manifest(json: text)
                if stored.applicationID == current.applicationID { manifest = stored }
            } catch {
                logger.warning("the manifest kept with the state does not load; reading the state under the current one",
                    metadata: ["file": "\(name)", "error": "\(error)"])
            }
        }
        if currentName != nil, loaded.snapshot?.manifest != currentName { needsSnapshot = true }
        replaying = true
        defer { replaying = false }
        do throws(ReplayFailure) {
            let failure = try restore(loaded)
            // Numbers seen in files that were set aside while loading stay used.
            nextWindowNumber = max(nextWindowNumber, loaded.nextWindow)
            if let failure {
                // The state up to the entry that failed is kept; the files are set aside and a fresh
                // snapshot of that state is written below.
                let salvaged = store.quarantine(reason: failure.reason)
                nextWindowNumber = max(nextWindowNumber, loaded.nextWindow, salvaged)
                needsSnapshot = true
            }
        } catch {
            let salvaged = store.quarantine(reason: error.reason)
            removeAllWindows()
            recentlyClosed = []
            order = []
            version = 0
            nextWindowNumber = max(loaded.nextWindow, nextWindowNumber, salvaged)
            needsSnapshot = true
        }
        // A unique name in a policy named a connection of the bus the state was written on; this start may be on
        // another bus, where the same name is another client (Docs/window-policy.md).
        for window in windows where window.policy?.change.contains(where: { $0.hasPrefix(":") }) == true
            || window.policy?.manage.contains(where: { $0.hasPrefix(":") }) == true
        {
            window.policy = window.policy?.withoutConnections
            needsSnapshot = true
        }
        if manifest.json != current.json {
            var ignored: [SessionEvent] = []
            logger.notice("the manifest changed since the state was written; migrating the state to it")
            migrate(to: current, events: &ignored)
            needsSnapshot = true
        }
        if store.quarantined.isEmpty == false || loaded.snapshot == nil || needsSnapshot
            || store.journalNeedsRestart || store.compactionDue
        {
            // Start a clean generation: a fresh pair of files that replays to exactly this state.
            replaying = false
            try writeCleanSnapshot(store)
        }
    }

    /// Restores the snapshot (throws if it does not load) and replays the journal up to the first entry
    /// that does not apply, whose failure it returns (`nil` when every entry applied).
    private func restore(_ loaded: LoadedState) throws(ReplayFailure) -> ReplayFailure? {
        var dropped: Set<WindowNumber> = []
        if let snapshot = loaded.snapshot {
            version = snapshot.sessionVersion
            nextWindowNumber = snapshot.nextWindow
            restoreClosed(snapshot.closed ?? [])
            statistics = snapshot.stats ?? SessionStatistics()
            savedSessions = []
            for stored in snapshot.sessions ?? [] { replaySaved(stored) }
            for stored in snapshot.windows {
                guard manifest.scene(stored.scene) != nil else {
                    logger.warning(
                        "dropping a saved window of a scene the manifest no longer declares",
                        metadata: ["window": "\(stored.number)", "scene": "\(stored.scene)"])
                    dropped.insert(stored.number)
                    continue
                }
                let graph: NavigationWindow
                do {
                    graph = try NavigationWindow(
                        snapshot: stored.snapshot, configuration: windowConfiguration(scene: stored.scene), logger: logger)
                } catch {
                    throw ReplayFailure(reason: "window \(stored.number): \(error.message)")
                }
                let window = SessionWindow(
                    number: stored.number, scene: stored.scene, graph: graph,
                    capabilities: manifest.capabilities(of: stored.scene), lastActivity: stored.lastActivity,
                    history: restoredHistory(stored.history, snapshot: stored.snapshot))
                window.closeOnExitOwner = stored.closeOnExitOwner
                window.group = stored.group
                window.policy = stored.policy
                window.pending = stored.pendingCommands?.pending ?? stored.pendingDeepLink.map(PendingNavigation.deepLink)
                insert(window)
                order.append(stored.number)
                activityClock = max(activityClock, stored.lastActivity)
            }
        }
        var failure: ReplayFailure?
        for (index, entry) in loaded.entries.enumerated() {
            guard !dropped.contains(entry.window) else { continue }
            do throws(ReplayFailure) {
                let time = index < loaded.times.count ? loaded.times[index] : nil
                try replay(entry, dropped: &dropped, time: time)
                if entry.windowVersion != nil { recordHistory(entry, cause: nil, time: time) }
                recordStatistics(entry, time: time)
            } catch {
                failure = ReplayFailure(reason: "journal entry \(index + 1): \(error.reason)")
                logger.error(
                    "the journal stops applying here; keeping the state before this entry",
                    metadata: ["entry": "\(index + 1)", "of": "\(loaded.entries.count)", "reason": "\(error.reason)"])
                break
            }
        }
        logger.info(
            "session restored",
            metadata: ["windows": "\(order.count)", "journalEntries": "\(loaded.entries.count)", "version": "\(version)"])
        return failure
    }

    /// Replays a window opening (`open`, `openSnapshot`): the session version and number follow on, and the window
    /// made by `make` is added — unless its scene is no longer declared (the number stays used; it is dropped).
    private func replayOpen(
        _ number: WindowNumber, scene: String, sessionVersion: UInt64, dropped: inout Set<WindowNumber>,
        make: (WindowConfiguration) throws(NavigationError) -> NavigationWindow
    ) throws(ReplayFailure) {
        guard sessionVersion == version + 1 else {
            throw ReplayFailure(reason: "session version \(sessionVersion) does not follow \(version)")
        }
        guard number >= nextWindowNumber else {
            throw ReplayFailure(reason: "window \(number) reuses a number below \(nextWindowNumber)")
        }
        guard WindowNumbering.isStorable(number) else {
            throw ReplayFailure(
                reason: "window \(number) is outside the numbers a saved state may name "
                    + "(1...\(WindowNumbering.highestStored), WindowNumbering)")
        }
        version = sessionVersion
        nextWindowNumber = number + 1
        guard manifest.scene(scene) != nil else {
            dropped.insert(number)
            return
        }
        let graph: NavigationWindow
        do {
            graph = try make(windowConfiguration(scene: scene))
        } catch {
            throw ReplayFailure(reason: "window \(number): \(error.message)")
        }
        addWindow(graph, number: number, scene: scene)
    }

    private func replay(_ entry: JournalEntry, dropped: inout Set<WindowNumber>, time: Int64?) throws(ReplayFailure) {
        func existing(_ number: WindowNumber) throws(ReplayFailure) -> SessionWindow {
            guard let window = windowsByNumber[number] else { throw ReplayFailure(reason: "no window \(number)") }
            return window
        }
        switch entry {
        case .open(let number, let scene, let root, let sessionVersion):
            try replayOpen(number, scene: scene, sessionVersion: sessionVersion, dropped: &dropped) { configuration throws(NavigationError) in
                try NavigationWindow(root: root, configuration: configuration, logger: logger)
            }
        case .dismiss(let number, let sessionVersion, let closedAt):
            let window = try existing(number)
            guard sessionVersion == version + 1 else {
                throw ReplayFailure(reason: "session version \(sessionVersion) does not follow \(version)")
            }
            version = sessionVersion
            if let closedAt, let entry = closedEntry(of: window, closedAt: closedAt) { remember(entry) }
            removeWindow(number)
            order.removeAll { $0 == number }
        case .reopen(let number, let closed, let scene, let sessionVersion):
            guard sessionVersion == version + 1 else {
                throw ReplayFailure(reason: "session version \(sessionVersion) does not follow \(version)")
            }
            guard number >= nextWindowNumber, WindowNumbering.isStorable(number) else {
                throw ReplayFailure(reason: "window \(number) reuses a number below \(nextWindowNumber) or is out of range")
            }
            version = sessionVersion
            nextWindowNumber = number + 1
            guard manifest.scene(scene) != nil else {
                recentlyClosed.removeAll { $0.number == closed }
                dropped.insert(number)
                return
            }
            guard let index = recentlyClosed.firstIndex(where: { $0.number == closed }) else {
                // Only when the list's bound shrank between runs (it fell off): the window cannot come back, the rest
                // of the state can.
                logger.warning(
                    "dropping a reopened window whose closed state is no longer kept",
                    metadata: ["window": "\(number)", "closed": "\(closed)"])
                dropped.insert(number)
                return
            }
            let graph: NavigationWindow
            do {
                graph = try NavigationWindow(
                    snapshot: recentlyClosed[index].snapshot.released(), configuration: windowConfiguration(scene: scene),
                    logger: logger)
            } catch {
                throw ReplayFailure(reason: "window \(number): \(error.message)")
            }
            recentlyClosed.remove(at: index)
            addWindow(graph, number: number, scene: scene)
        case .batch(let number, let batch, let expected):
            // Admitted when it was made: entry conditions are not asked again (the manifest may have changed).
            try replayChange(of: existing(number), reaching: expected) { graph throws(NavigationError) in
                try graph.apply(batch, checkingEntry: false)
            }
        case .report(let number, let report, let expected):
            try replayChange(of: existing(number), reaching: expected) { graph throws(NavigationError) in
                try graph.report(report, checkingEntry: false)
            }
        case .reapply(let number, let alert, let action, let batch, let waiving, let expected):
            try replayChange(of: existing(number), reaching: expected) { graph throws(NavigationError) in
                try graph.reapply(closing: alert, action: action, batch: batch, waiving: Set(waiving))
            }
        case .saveSession(let stored):
            replaySaved(stored)
        case .deleteSession(let name):
            savedSessions.removeAll { $0.name == name }
        case .group(let name, let numbers):
            applyGroup(name, numbers.filter { windowsByNumber[$0] != nil })
        case .openSnapshot(let number, let scene, let snapshot, let sessionVersion):
            try replayOpen(number, scene: scene, sessionVersion: sessionVersion, dropped: &dropped) { configuration throws(NavigationError) in
                try NavigationWindow(snapshot: snapshot, configuration: configuration, logger: logger)
            }
        case .move(let from, let to):
            // Both parts, or (a window gone with its scene) what is left of it.
            for part in [from, to] where !dropped.contains(part.window) {
                try replay(part, dropped: &dropped, time: time)
                if part.windowVersion != nil { recordHistory(part, cause: nil, time: time) }
            }
            // A tear-off's window is under its source's policy.
            if case .openSnapshot(let opened, _, _, _) = to, let source = windowsByNumber[from.window] {
                windowsByNumber[opened]?.policy = source.policy
            }
        case .restore(let number, let cause, let snapshot, let expected):
            try replayChange(of: existing(number), reaching: expected) { graph throws(NavigationError) in
                try graph.restore(snapshot, cause: cause)
            }
        case .scheduledRan(let number, let id, let expected):
            let event = try replayChange(of: existing(number), reaching: expected) { graph throws(NavigationError) in
                try graph.runScheduled(id, checkingEntry: false)
            }
            recordHistory(entry, cause: event.cause, time: time)
        case .scheduledDropped(let number, let id):
            try existing(number).graph.dropScheduled(id)
            recordScheduledDrop(window: number, id: id)
        case .scheduledDisowned(let number, let author):
            try existing(number).graph.disownScheduled(by: author)
        case .policy(let number, let policy):
            try existing(number).policy = policy
        case .guardDecided:
            // Counted with its time by the replay loop (recordStatistics).
            break
        case .closeOnExit(let number, let owner):
            try existing(number).closeOnExitOwner = owner
        case .pendingDeepLink(let number, let url):
            try existing(number).pending = url.map(PendingNavigation.deepLink)
        case .pendingCommands(let number, let batch, let screen, let state):
            try existing(number).pending = .commands(batch, screen: screen, state: state)
        }
    }

    /// Makes a journaled change to `window` again (through the session's guard gate) and checks that it reaches
    /// the version the journal says it did.
    @discardableResult
    private func replayChange(
        of window: SessionWindow, reaching expected: Int, _ change: (NavigationWindow) throws(NavigationError) -> ChangeEvent
    ) throws(ReplayFailure) -> ChangeEvent {
        let event: ChangeEvent
        do {
            event = try gated(window) { () throws(NavigationError) in try change(window.graph) }
        } catch {
            throw ReplayFailure(reason: "window \(window.number): \(error.message)")
        }
        _ = window.graph.drainEffects()
        _ = window.graph.drainMessages()
        if event.isNoOp, expected == event.version + 1 {
            // Journals written before no-op changes were dropped hold them with a version of their own.
            window.graph.advanceVersionForReplay()
            touch(window)
            return event
        }
        guard event.version == expected else {
            throw ReplayFailure(reason: "window \(window.number) reached version \(event.version), expected \(expected)")
        }
        touch(window)
        return event
    }
}
