import NavigationCore
import NavigationSession

/// State directories (`SessionStore` + `Session` restore): the input is the journal or the snapshot file
/// of the demo application. Whatever loads must be valid, must survive a clean close and reload
/// unchanged, and must stay usable (open, change, deep link, close).
enum PersistenceHarness {
    /// `journal.jsonl` holds the input; there is no snapshot.
    static func journal(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        try load(state: nil, journal: Array(data), "journal")
    }

    /// `state.json` holds the input up to the first NUL byte; the rest, if any, is `journal.jsonl`.
    static func snapshot(_ data: UnsafeRawBufferPointer) throws(InvariantViolation) {
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        try load(state: Array(parts[0]), journal: parts.count > 1 ? Array(parts[1]) : nil, "snapshot")
    }

    private static func load(state: [UInt8]?, journal: [UInt8]?, _ name: String) throws(InvariantViolation) {
        try Fixtures.withScratchDirectory { (directory) throws(InvariantViolation) in
            if let state { try Fixtures.write(state, to: directory + "/" + SessionStore.stateFileName) }
            if let journal { try Fixtures.write(journal, to: directory + "/" + SessionStore.journalFileName) }
            try check(directory, name)
        }
    }

    private static func check(_ directory: String, _ name: String) throws(InvariantViolation) {
        let demo = try Fixtures.demoManifest()
        let session = try open(directory, demo, "\(name): load")
        try Invariants.check(session, "\(name): loaded")
        let loaded = Invariants.SessionState(session)
        do {
            try session.close()
        } catch {
            throw InvariantViolation("\(name): the loaded session cannot be saved: \(error)")
        }
        let store = try CommandHarness.store(directory)
        let reloaded = try open(store, demo, "\(name): reload")
        guard store.quarantined.isEmpty else {
            throw InvariantViolation("\(name): the snapshot written by close() is rejected on reload")
        }
        guard Invariants.SessionState(reloaded) == loaded else {
            throw InvariantViolation("\(name): the session changes across close() and reload")
        }
        try exercise(reloaded, name)
    }

    /// A restored session must keep working: every call either succeeds or throws, and windows stay valid.
    private static func exercise(_ session: Session, _ name: String) throws(InvariantViolation) {
        _ = try? session.openWindow(scene: "waiting")
        for window in session.windows {
            _ = try? session.execute(window: window.number, command: .switchModel(.screen("main")))
            _ = try? session.execute(window: window.number, command: .stackAppend(.screen("detail", params: ["id": "1"])))
            _ = try? session.report(window: window.number, .selectedTab(tabs: 1, tab: "settings"))
        }
        _ = try? session.openURL("navsession-demo://detail/7/edit")
        _ = try? session.openURL("https://example.org")
        if let first = session.windows.first {
            _ = try? session.setCloseOnExit(window: first.number, owner: ":1.1")
            _ = try? session.clientVanished(uniqueName: ":1.1")
        }
        try Invariants.check(session, "\(name): after use")
        do {
            try session.close()
        } catch {
            throw InvariantViolation("\(name): the used session cannot be saved: \(error)")
        }
    }

    private static func open(_ directory: String, _ demo: Manifest, _ context: String) throws(InvariantViolation) -> Session {
        try open(try CommandHarness.store(directory), demo, context)
    }

    private static func open(_ store: SessionStore, _ demo: Manifest, _ context: String) throws(InvariantViolation) -> Session {
        do {
            return try Session(manifest: demo, store: store, limits: Fixtures.limits, logger: Fixtures.quiet)
        } catch {
            throw InvariantViolation("\(context): the session does not start: \(error)")
        }
    }
}
