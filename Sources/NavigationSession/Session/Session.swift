import Logging
import NavigationCore
import NavigationRouting

/// The windows of one application, their graphs, deep links and effects — the whole D-Bus-free service.
///
/// Not `Sendable`: owned by one isolation domain (the D-Bus layer keeps it inside an actor). Every
/// operation is synchronous, validates before it changes anything, persists the change (when a
/// ``SessionStore`` is attached) before returning, and returns a ``SessionOutcome`` listing every
/// event to signal, in order — including those of effects the change caused (`openWindow`,
/// `dismissWindow`, `openURL`, triggers).
///
/// ```swift
/// let session = try Session(manifest: .demo(), store: store)
/// let main = try session.openWindow(scene: "main").window!          // 1
/// try session.execute(window: main, command: .switchModel(.screen("main")))   // builds the "main" state
/// let link = try session.openURL("navsession-demo://detail/42")
/// link.deepLink   // .applied(route: "detail")
/// ```
public final class Session {
    /// The application this session serves; a reload replaces it (``reloadManifest(_:client:)``).
    public internal(set) var manifest: Manifest {
        _read { yield manifestBox.value }
        set { manifestBox = ManifestBox(value: newValue) }
    }
    /// The manifest, held once: a change reads it several times (titles, announcements, screens), and a read of a
    /// struct stored in a class copies each of its fields (a retain each); a read through a constant of a final
    /// class borrows it.
    private var manifestBox: ManifestBox

    /// A screen the manifest declares, read from the one field it is in. A change reads declarations several times
    /// (titles, announcements, scenes), and a method called on ``manifest`` (or on the box's value) copied the whole
    /// manifest first: a retain and a release for each of its fields, a seventh of a call's reference counting.
    func declaredScreen(_ name: String) -> ScreenDeclaration? { manifestBox.value.screensByName[name] }
    /// A scene the manifest declares, read from its one field (``declaredScreen(_:)``).
    func declaredScene(_ name: String) -> SceneDeclaration? { manifestBox.value.scenesByName[name] }
    /// The manifest's phrase for an announcement of `kind` in `locale`, from its one field (``declaredScreen(_:)``).
    func declaredPhrase(_ kind: String, locale: String) -> String {
        Manifest.phrase(kind, locale: locale, in: manifestBox.value.announcements)
    }
    /// The manifest's locale, read from its one field (``declaredScreen(_:)``).
    var declaredLocale: String { manifestBox.value.locale }
    /// The limits enforced.
    public let limits: SessionLimits
    /// Bumped by one each time a window opens or closes (Session1 `Version`).
    public internal(set) var version: UInt64 = 0
    /// The number the next window gets.
    public internal(set) var nextWindowNumber: WindowNumber = 1

    let store: SessionStore?
    let logger: Logger
    /// Change only through ``insert(_:)``, ``removeWindow(_:)`` and ``removeAllWindows()``, which keep
    /// ``contentLedger`` the sum over exactly these windows.
    private(set) var windowsByNumber: [WindowNumber: SessionWindow] = [:]
    /// The content cost of all open windows together, kept current by the windows themselves.
    let contentLedger = ContentLedger()
    /// What each client has created and sent (its shares of the session's limits).
    let clientBudgets = ClientBudgets()
    /// The client the change being made is charged to; `nil` while the daemon acts on its own.
    var actingClient: String?
    /// Each connected client's Flatpak app id (`""`: not in a sandbox), told with its process (``join(client:process:app:)``);
    /// what a window's policy (``WindowPolicy``) matches `app:` and `host` against.
    var clientApps: [String: String] = [:]
    /// What `GetStats` reports, counted from the journal's lines (Session+Statistics.swift).
    var statistics = SessionStatistics()
    /// Changes refused by a protection mark during the change being made, returned with its result
    /// (``change(asking:window:approvals:rerun:_:)``): the `Window1.Prevented` signals to send.
    var refusals: [ProtectionRefusal] = []
    /// Changes refused by a mark whose dialog was presented in their place, by window and dialog model: choosing the
    /// dialog's re-applying action applies them once (Docs/guards.md). Not persisted.
    var pendingReapply: [WindowNumber: [ModelID: PendingReapply]] = [:]
    /// Events of changes made while an operation failed (a guard's dialog presented in place of a refused change),
    /// returned with the change's result (``change(asking:window:approvals:rerun:_:)``).
    var deferredEvents: [SessionEvent] = []
    var presentingGuardDialog = false
    /// The time the per-client rates are measured with.
    let clock: SessionClock
    var order: [WindowNumber] = []
    var activityClock: UInt64 = 0
    var needsSnapshot = false
    var replaying = false
    /// Nesting of effect handling, so an effect loop (a deep link opening itself) ends.
    var effectDepth = 0
    /// Guard providers' registrations and the question being asked (Session+GuardProviders.swift).
    var guardProviders = GuardProviderState()
    static let maximumEffectDepth = 8
    /// The windows with scheduled batches waiting (Session+Scheduled.swift).
    var scheduledWindows: Set<WindowNumber> = []
    /// The bytes of every open window's history entries together (``SessionLimits/maxSessionHistoryBytes``).
    var historyBytes = 0
    /// Why this session started (Session+Restore.swift): Session1 `RestoreReason`.
    public internal(set) var restoreReason: RestoreReason = .pristine
    /// Where the crash-loop guard moved the previous state at start, or nil (Session1 `RestoreSetAside`).
    public internal(set) var restoreSetAside: String?
    /// The recently closed windows, most recent first, at most ``SessionLimits/maxClosedWindows``
    /// (Session+ClosedWindows.swift).
    var recentlyClosed: [ClosedWindow] = []
    /// The named sessions, by name (Session+NamedSessions.swift).
    var savedSessions: [NamedSession] = []

    /// Creates a session, restoring the state saved in `store` (if any).
    ///
    /// A corrupt or foreign saved state is moved aside with an error logged, and the session starts
    /// fresh (keeping window numbers above any it could read). Windows whose scene the manifest no
    /// longer declares are dropped with a warning.
    /// - Parameter clock: what the per-client message rates are measured with (tests pass their own).
    /// - Parameter restoreReason: why the session starts, when the caller knows (`--restore-reason`, the SaveRestore
    ///   portal); else told by the store's marker (Docs/persistence.md, "Restore by reason"). The manifest's
    ///   `restore` policy for it decides what comes back.
    /// - Throws: ``SessionError/storageFailed(_:)`` only when a fresh journal cannot be started.
    public init(
        manifest: Manifest, store: SessionStore? = nil, limits: SessionLimits = SessionLimits(),
        logger: Logger = Logger(label: "NavigationSession"), clock: SessionClock = .monotonic,
        restoreReason: RestoreReason? = nil
    ) throws(SessionError) {
        self.manifestBox = ManifestBox(value: manifest)
        self.store = store
        self.limits = limits
        self.logger = logger
        self.clock = clock
        guard let store else {
            self.restoreReason = restoreReason ?? .pristine
            return
        }
        // Why we start (and the crash-loop guard) before anything is loaded.
        try beginRun(store, reason: restoreReason)
        try restore(from: store)
        applyOverdueRules()
        applyRestorePolicy(restoreSetAside == nil ? manifest.restore.policy(for: self.restoreReason) : .everything)
    }

    // MARK: Reading

    /// Open windows in opening order (Session1 `ListWindows`, `Windows`).
    public var windows: [SessionWindow] { order.compactMap { windowsByNumber[$0] } }

    /// The window numbered `number`.
    /// - Throws: ``SessionError/unknownWindow(_:)``.
    public func window(_ number: WindowNumber) throws(SessionError) -> SessionWindow {
        guard let window = windowsByNumber[number] else { throw .unknownWindow(number) }
        return window
    }

    /// The most recently opened or changed window, if any (where external URLs are announced).
    public var activeWindow: SessionWindow? {
        windowsByNumber.values.max { $0.lastActivity < $1.lastActivity }
    }

    /// Window1 `Title`: the active model's title, else its screen's title in the manifest, else its screen.
    /// - Throws: ``SessionError/unknownWindow(_:)``.
    public func title(of number: WindowNumber) throws(SessionError) -> String {
        let window = try window(number)
        return title(of: window.graph.ownTitle(of: window.graph.activeModelID))
    }

    /// The title shown for a model with `facts` (``NavigationWindow/ownTitle(of:)``; Window1 `Title`): its own or a
    /// dialog's headline, else its screen's declared title, else the screen's name; `""` for no model.
    public func title(of facts: (screen: String, title: String?)?) -> String {
        guard let facts else { return "" }
        return facts.title ?? declaredScreen(facts.screen)?.title ?? facts.screen
    }

    /// The title shown for `model`, by the same rule as the title from its facts (above).
    public func title(of model: ModelState?) -> String {
        guard let model else { return "" }
        switch model.content {
        case .alert(let dialog), .confirmationDialog(let dialog):
            // A dialog's title is its headline; its screen name is only its kind.
            return title(of: (model.screen, model.title ?? dialog.title))
        default:
            return title(of: (model.screen, model.title))
        }
    }

    // MARK: Opening and closing

    /// Opens a window of `scene` (Session1 `OpenWindow`); a singleton scene already open returns its window.
    ///
    /// `params` go to the scene's entry screen (descending from the root through element 0 of stacks,
    /// the selected tab and the switched model) and are checked against its declaration.
    /// - Parameter client: the caller's unique bus name, charged with the window (``SessionLimits/maxClientWindows``,
    ///   ``SessionLimits/maxClientContentCost``); `nil` charges no one.
    /// - Returns: the outcome; `window` is the (new or existing) window, `events` holds `windowOpened`
    ///   when one opened.
    /// - Throws: ``SessionError/unknownScene(_:)``, ``SessionError/invalidArguments(_:)`` (missing or
    ///   undeclared parameter), ``SessionError/limitsExceeded(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func openWindow(
        scene: String, params: [String: String] = [:], client: String? = nil
    ) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            var events: [SessionEvent] = []
            let number = try openWindow(scene: scene, params: params, events: &events)
            return outcome(window: number, events: events)
        }
    }

    /// Opens a window of the default scene if no window is open (the daemon calls this at start).
    /// - Returns: the outcome, or `nil` when windows were already open.
    public func openDefaultWindowIfNone() throws(SessionError) -> SessionOutcome? {
        guard order.isEmpty else { return nil }
        return try openWindow(scene: manifest.defaultSceneName)
    }

    /// Closes a window (Session1 `DismissWindow`, Window1 `ReportClosed`): its models finish first.
    ///
    /// - Returns: the outcome: a `changed` event carrying the `finished` models, their `finished`
    ///   messages, then `windowClosed`.
    /// - Throws: ``SessionError/unknownWindow(_:)``, ``SessionError/storageFailed(_:)``.
    @discardableResult
    public func dismissWindow(_ number: WindowNumber, client: String? = nil) throws(SessionError) -> SessionOutcome {
        try acting(as: client) { () throws(SessionError) in
            var events: [SessionEvent] = []
            try dismissWindowWithGroup(number, events: &events)
            return outcome(window: number, events: events)
        }
    }

    /// Closes window `number` and the other windows of its group (Docs/desktop.md, "Window groups"), at one moment:
    /// they reopen together. A guard or a mark refusing one window's close stops the closes after it.
    func dismissWindowWithGroup(_ number: WindowNumber, events: inout [SessionEvent]) throws(SessionError) {
        _ = try window(number)
        let together = closingTogether(with: number)
        // A window's policy refuses the whole close, as a mark does, before anything closes.
        for member in together { if let window = windowsByNumber[member] { try checkPolicy(window) } }
        guard together.count > 1 else { return try dismissWindow(number, events: &events) }
        // A mark on any of them refuses the whole close before anything closes.
        for member in together {
            guard let window = windowsByNumber[member], let error = closeRefusal(of: window) else { continue }
            noteRefusal(error, in: member)
            throw .navigation(error)
        }
        let closedAt = clock.wallMilliseconds()
        var closed: [SessionEvent] = []
        for member in together where windowsByNumber[member] != nil {
            do {
                try dismissWindow(member, closedAt: closedAt, events: &closed)
            } catch {
                // A guard kept this one open: the ones closed before it stay closed, and are announced with the
                // refusal (never lost with it).
                deferredEvents.append(contentsOf: closed)
                throw error
            }
        }
        events += closed
    }

    func openWindow(
        scene name: String, params: [String: String], events: inout [SessionEvent]
    ) throws(SessionError) -> WindowNumber {
        let (scene, root) = try prepareWindow(scene: name, params: params)
        if scene.instances == .single, let existing = windows.first(where: { $0.scene == name }) {
            return existing.number
        }
        let graph = try makeGraph(root, scene: name)
        let window = try register(graph, scene: name, root: root)
        events.append(.windowOpened(window.number, scene: name))
        return window.number
    }

    /// Validates a scene and parameters; returns the declaration and the root structure with them merged.
    func prepareWindow(
        scene name: String, params: [String: String]
    ) throws(SessionError) -> (SceneDeclaration, ModelSpec) {
        guard let scene = manifest.scene(name), let structure = scene.rootStructure else {
            throw .unknownScene(name, suggestion: Spelling.closest(to: name, in: manifest.sceneNames))
        }
        guard let entry = structure.entryScreen, let declaration = manifest.screen(entry.screen) else {
            if let key = params.keys.sorted().first {
                throw .invalidArguments("scene '\(name)' takes no parameters (got '\(key)')")
            }
            return (scene, structure)
        }
        switch declaration.problem(with: Array(entry.params.keys) + Array(params.keys)) {
        case .missing(let key):
            throw .invalidArguments("scene '\(name)': screen '\(entry.screen)' requires parameter '\(key)'")
        case .unknown(let key):
            throw .invalidArguments("scene '\(name)': screen '\(entry.screen)' has no parameter '\(key)'")
        case nil:
            return (scene, structure.mergingEntryParams(params))
        }
    }

    func makeGraph(_ root: ModelSpec, scene: String) throws(SessionError) -> NavigationWindow {
        try checkedGraph { () throws(NavigationError) in
            try NavigationWindow(root: root, configuration: windowConfiguration(scene: scene), logger: logger)
        }
    }

    /// The graph `make` builds for a new or reopened window, once there is room for one more window
    /// (``checkRoomForWindow()``) and only when its content fits a new window's budget.
    func checkedGraph(_ make: () throws(NavigationError) -> NavigationWindow) throws(SessionError) -> NavigationWindow {
        try checkRoomForWindow()
        let graph: NavigationWindow
        do {
            graph = try make()
        } catch {
            throw .navigation(error)
        }
        if let message = newWindowBudget().overrun(graph.contentCost) { throw .limitsExceeded(message) }
        return graph
    }

    /// Throws `LimitsExceeded` when no window may open now: the session's or the acting client's window limit, or
    /// no window number left.
    func checkRoomForWindow() throws(SessionError) {
        guard order.count < limits.maxWindows else {
            throw .limitsExceeded("at most \(limits.maxWindows) windows may be open")
        }
        guard clientBudgets.windows(of: actingClient) < limits.maxClientWindows else {
            throw .limitsExceeded(
                "a client may have opened at most \(limits.maxClientWindows) open windows (per-client window share)")
        }
        guard nextWindowNumber <= WindowNumbering.highest else {
            let message = "window numbers are exhausted: the next would be \(nextWindowNumber), above the highest, "
                + "\(WindowNumbering.highest); numbers are never reused"
            logger.error("cannot open a window: \(message)")
            throw .limitsExceeded(message)
        }
    }

    /// A window's configuration: the manifest's for its scene, with the session's graph limits.
    func windowConfiguration(scene: String) -> WindowConfiguration {
        var configuration = manifest.windowConfiguration(scene: scene)
        configuration.limits = limits.graph
        // Message handlers run inside the window, so they are expanded for the scene once, here.
        let handlers = manifest.messageHandlers
        if !handlers.isEmpty {
            let declaration = manifest.scene(scene)
            configuration.messageHandlers = handlers.mapValues { byMessage in
                byMessage.mapValues { commands in commands.map { expand($0, scene: declaration) } }
            }
        }
        return configuration
    }

    /// Adds a window built by ``makeGraph(_:)`` under the next number and journals it.
    func register(_ graph: NavigationWindow, scene: String, root: ModelSpec) throws(SessionError) -> SessionWindow {
        try register(graph, scene: scene) { number, version in
            .open(window: number, scene: scene, root: root, sessionVersion: version)
        }
    }

    /// Adds a window under the next number and journals it as `entry(number, sessionVersion)`.
    func register(
        _ graph: NavigationWindow, scene: String, entry: (WindowNumber, UInt64) -> JournalEntry
    ) throws(SessionError) -> SessionWindow {
        let number = nextWindowNumber
        nextWindowNumber += 1
        version += 1
        let window = addWindow(graph, number: number, scene: scene)
        do {
            try persist(entry(number, version))
        } catch {
            // Not written: undo in memory (the number stays used). The next write is a full snapshot.
            removeWindow(number)
            order.removeLast()
            version -= 1
            throw error
        }
        clientBudgets.opened(number, by: actingClient)
        clientBudgets.record(graph.contentCost, in: number, by: actingClient)
        return window
    }

    /// Opens `graph` as window `number` of `scene` (``insert(_:)``), the most recently active and last in the
    /// window order; journals nothing (``register(_:scene:entry:)`` and the journal replay do).
    @discardableResult
    func addWindow(_ graph: NavigationWindow, number: WindowNumber, scene: String) -> SessionWindow {
        activityClock += 1
        let window = SessionWindow(
            number: number, scene: scene, graph: graph, capabilities: manifest.capabilities(of: scene),
            lastActivity: activityClock)
        // The scene's policy, from the manifest alone: a replayed open gets the same.
        window.policy = manifest.scene(scene)?.policy
        insert(window)
        order.append(number)
        return window
    }

    /// Makes `window` open under its number, its content counted in the session's.
    func insert(_ window: SessionWindow) {
        removeWindow(window.number)
        window.graph.contentLedger = contentLedger
        window.graph.wallClock = clock.wallMilliseconds
        installGate(on: window)
        window.announcedFocus = window.graph.activeModelID
        windowsByNumber[window.number] = window
        historyBytes += window.history.bytes
    }

    /// Why a mark refuses closing `window` (its first mark's `prevented`), or `nil` when none does.
    func closeRefusal(of window: SessionWindow) -> NavigationError? {
        guard !window.graph.isClosed, window.graph.protectedCount > 0, let first = window.graph.protections.first else {
            return nil
        }
        return .prevented(
            model: first.model, reason: first.protection.reason, dialog: first.protection.dialog, owner: first.protection.owner)
    }

    /// Sets the window under its number (``replaceWindow(_:)`` keeps the sums).
    func setWindow(_ window: SessionWindow) { windowsByNumber[window.number] = window }

    /// Closes window `number` in memory, its content no longer counted; nothing if it is not open.
    func removeWindow(_ number: WindowNumber) {
        scheduledWindows.remove(number)
        // A guard provider's answers about it go with it.
        guardProviders.verdicts[number] = nil
        if let removed = windowsByNumber.removeValue(forKey: number) {
            removed.graph.contentLedger = nil
            historyBytes -= removed.history.bytes
        }
        clientBudgets.closed(number)
    }

    func removeAllWindows() {
        for window in windowsByNumber.values { window.graph.contentLedger = nil }
        windowsByNumber = [:]
        scheduledWindows = []
        historyBytes = 0
        clientBudgets.closedAll()
    }

    /// - Parameter guarded: whether the window's protected models refuse the close (`Prevented`); a window
    ///   closing because its close-on-exit client left is not guarded (Docs/guards.md).
    func dismissWindow(
        _ number: WindowNumber, guarded: Bool = true, closedAt moment: Int64? = nil, events: inout [SessionEvent]
    ) throws(SessionError) {
        let window = try window(number)
        if guarded, let error = closeRefusal(of: window) {
            noteRefusal(error, in: number)
            throw .navigation(error)
        }
        let waived = guarded ? [] : Set(window.graph.protections.map(\.model))
        // For the recently-closed list: its last state, before its models finish (nil when no list is kept).
        let closedAt = moment ?? clock.wallMilliseconds()
        let last = closedEntry(of: window, closedAt: closedAt)
        var closing: ChangeEvent?
        if !window.graph.isClosed {
            do {
                closing = try gated(window) { () throws(NavigationError) in
                    try window.graph.report(.windowClosed, waiving: waived)
                }
            } catch {
                // A guard refusing the close keeps the window open; anything else cannot stop a close.
                switch error {
                case .denied, .decisionPending, .notPermitted: throw .navigation(error)
                default: break
                }
            }
        }
        if let event = closing {
            events.append(.changed(number, event, steps: [], causeJSON: causeJSON(of: event)))
            for message in window.graph.drainMessages() where !message.isLifecycleFinish {
                events.append(.message(number, message))
            }
        }
        _ = window.graph.drainEffects()
        removeWindow(number)
        order.removeAll { $0 == number }
        version += 1
        events.append(.windowClosed(number, scene: window.scene))
        if let last { remember(last) }
        try persist(.dismiss(window: number, sessionVersion: version, closedAt: last.map { _ in closedAt }))
    }

    func touch(_ window: SessionWindow) {
        activityClock += 1
        window.lastActivity = activityClock
    }

    /// The version a window reached in `events` before it closed (an `Apply` that closes its own window
    /// still answers with the version of its change).
    static func lastVersion(of window: WindowNumber, in events: [SessionEvent]) -> Int? {
        for event in events.reversed() {
            if case .changed(window, let change, _, _) = event { return change.version }
        }
        return nil
    }

    /// The outcome of an operation about `window` that made `events`: the window's version now (or, closed, the
    /// version of its last change among `events`) and the session's.
    public func outcome(window: WindowNumber?, events: [SessionEvent], deepLink: DeepLinkResult? = nil) -> SessionOutcome {
        SessionOutcome(
            window: window, windowVersion: window.flatMap { windowsByNumber[$0]?.version ?? Self.lastVersion(of: $0, in: events) },
            sessionVersion: version,
            events: events, deepLink: deepLink)
    }
}

/// See ``Session/manifest``.
private final class ManifestBox: Sendable {
    let value: Manifest
    init(value: Manifest) { self.value = value }
}
