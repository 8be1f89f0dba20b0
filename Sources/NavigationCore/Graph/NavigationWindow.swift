import Logging

/// One window's navigation graph, changed only through commands and renderer reports.
///
/// The window is a non-`Sendable` class owned by one isolation domain (the session service keeps each
/// window inside an actor). Models live in a table keyed by id (``NodeTable``) with parent pointers; every command
/// costs O(depth of the graph), never O(number of models).
///
/// ```swift
/// let window = try NavigationWindow(root: .stacked(.screen("home")))
/// try window.execute(.stackAppend(.screen("detail", params: ["id": "42"])))
/// try window.execute(.present(.sheet(.stacked(.screen("compose")))))
/// print(window.debugTree())
/// ```
public final class NavigationWindow {
    /// The models by id. This and ``rootID`` skip the run-time exclusivity check (every walk of the graph reads
    /// both): they are only read, assigned, or changed by ``NodeTable``'s own subscript, which calls nothing
    /// that could reach the window again, so no two accesses can overlap (see ``Node``).
    @exclusivity(unchecked) var nodes = NodeTable()
    /// The tag index: each application-chosen tag and the model carrying it (O(1) lookups, no scans).
    var tags: [String: ModelID] = [:]
    /// The models carrying a protection mark: a change checks marks only when there are any, and listing
    /// them costs O(marks).
    var marked: Set<ModelID> = [] {
        didSet { marksRevision &+= 1 }
    }
    /// Bumped whenever a mark is set, changed or removed (``protectionsJSON``'s cache key).
    var marksRevision = 0
    /// The `Protected` JSON for ``marksRevision``.
    var cachedProtectionsJSON: (revision: Int, json: String)?
    /// How many models carry a protection mark.
    public var protectedCount: Int { marked.count }
    /// The root model; it is never removed and never finished.
    @exclusivity(unchecked) public internal(set) var rootID: ModelID
    var nextID: Int
    /// Ids a re-created route takes back, in creation order (`goForward`: the models back removed come back as
    /// themselves); empty otherwise. Set and cleared around one command.
    var returningIDs: ArraySlice<ModelID> = []
    /// The sum of the models' content costs: an upper estimate of the bytes every message describing
    /// the whole window carries (`GetState`, the route view). Bounded by ``GraphLimits/maxContentCost``.
    public internal(set) var contentCost = 0 {
        didSet { contentLedger?.add(contentCost - oldValue) }
    }
    /// The ledger that sums this window's ``contentCost`` with other windows' (a session's), if any.
    /// Attaching adds the current cost to it and detaching takes it back out, so a ledger's total is always
    /// the sum over the windows attached to it.
    public var contentLedger: ContentLedger? {
        didSet {
            guard oldValue !== contentLedger else { return }
            oldValue?.add(-contentCost)
            contentLedger?.add(contentCost)
        }
    }
    /// Increases by exactly one for every applied change; failed commands leave it alone.
    public internal(set) var version: Int
    /// True after a ``RendererReport/windowClosed`` report; every later command or report fails.
    public internal(set) var isClosed: Bool
    /// Settings fixed at creation.
    public let configuration: WindowConfiguration
    /// Receives lifecycle and message logs at debug level.
    public var logger: Logger
    /// Called synchronously with every change event, after the state is committed and before
    /// listeners get the change's messages (so nested changes made by listeners are reported after it).
    public var changeHandler: ((ChangeEvent) -> Void)?
    /// Checked on every change after it is computed and before it commits (``CommitGate``); `nil`: none.
    public var commitGate: CommitGate?

    var listeners: [ModelID: [(id: Int, handler: (DeliveredMessage) -> Void)]] = [:]
    var nextListenerID = 1
    var effectQueue: [QueuedEffect] = []
    var messageQueue: [DeliveredMessage] = []
    var tx = Transaction()
    // Scheduled batches and message handlers (NavigationWindow+Scheduled.swift,
    // NavigationWindow+Handlers.swift).
    /// The batches waiting for their deadline, in scheduling order (at most ``GraphLimits/maxScheduled``).
    public internal(set) var scheduled: [ScheduledBatch] = []
    /// The number of the next id the window assigns (`s<n>`) to a batch scheduled without one.
    public internal(set) var nextScheduleNumber = 1
    /// The window's own renderer state (``RendererState``); `nil` when none is stored.
    public internal(set) var rendererState: RendererState?
    /// The wall clock `schedule` measures deadlines with (ms since the Unix epoch); the session sets its own.
    public var wallClock: @Sendable () -> Int64 = { WallClock.now() }
    // Back and forward (NavigationWindow+Forward.swift).
    /// What back-like changes removed from the active branch, the next route to re-enter first (at most
    /// ``maxForwardEntries``); `goForward` creates them again.
    public internal(set) var forward: [ForwardEntry] = []
    /// Models prepared ahead of being shown (``PreparedModel``), oldest first.
    public internal(set) var prepared: [PreparedModel] = []
    /// The handlers running, innermost last: the model handling and the message name (depth and cycles).
    var handling: [(model: ModelID, message: String)] = []

    /// Creates a window whose root is instantiated from `root`; its models start at version 0.
    ///
    /// - Throws: ``NavigationError/invalidSpec(_:)``, ``NavigationError/emptyPath(stack:)``,
    ///   ``NavigationError/unknownPresentationKind(_:)`` or ``NavigationError/cannotPresent(screen:)``.
    public convenience init(
        root: ModelSpec, configuration: WindowConfiguration = WindowConfiguration(),
        logger: Logger = Logger(label: "NavigationCore")
    ) throws(NavigationError) {
        self.init(configuration: configuration, logger: logger)
        let root = try instantiate(root, mayPresent: true)
        rootID = root.id
        try checkTagClaims()
        contentCost = tx.created.reduce(0) { $0 + $1.cost }
        guard tx.created.count <= configuration.limits.maxModels, contentCost <= configuration.limits.maxContentCost else {
            throw .limitsExceeded("the window's root has \(tx.created.count) models of \(contentCost) bytes; over the limits")
        }
        for node in tx.created {
            node.started = true
            logger.debug("started", metadata: ["model": "\(node.id)", "screen": "\(node.screen)"])
        }
        tx = Transaction()
    }

    /// An empty window; callers fill `nodes` before handing it out.
    init(configuration: WindowConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.rootID = ModelID(rawValue: 1)
        self.nextID = 1
        self.version = 0
        self.isClosed = false
    }

    /// The number of models in the graph.
    public var modelCount: Int { nodes.count }

    /// Whether `id` names a model in the graph.
    public func contains(_ id: ModelID) -> Bool { nodes[id] != nil }

    /// A value view of one model, or `nil` for an unknown id. O(1).
    public func model(_ id: ModelID) -> ModelState? { nodes[id]?.state(declared: configuration.appearances) }

    /// The root model's state.
    public var root: ModelState? { model(rootID) }

    /// The parent of `id` (`nil` for the root or an unknown id).
    public func parent(of id: ModelID) -> ModelID? { nodes[id]?.parent }

    /// The children of `id` in graph order (presented first, then container children); empty if unknown.
    public func children(of id: ModelID) -> [ModelID] { nodes[id]?.children ?? [] }

    /// The model commands run from by default.
    ///
    /// Starting at the root: if the model's slot is filled go to the presented model, otherwise descend
    /// into the selected tab, the switched model, the last stack element or the selected custom child; stop
    /// at a model with neither. With presentations only on the root's chain this is exactly "follow the
    /// presented chain to its top, then descend to a leaf". O(depth).
    public var activeModelID: ModelID { walkActiveBranch(until: { _ in false }) }

    /// The selected tab of the first tab container on the active branch (from the root), `nil` when there is
    /// none. O(depth) and copies no model state (read after every change for the `SelectedTab` property).
    public var activeSelectedTab: String? { firstOnActiveBranch { $0.kind == .tabs ? $0.selectedTab : nil } }

    /// The switched model of the first switched container on the active branch (from the root), `nil` when
    /// there is none. O(depth), no copies.
    public var activeSwitchedModel: ModelID? { firstOnActiveBranch { $0.kind == .switched ? $0.switchedModel : nil } }

    /// The first non-nil `value(node)` along the active branch from the root.
    private func firstOnActiveBranch<T>(_ value: (Node) -> T?) -> T? {
        var found: T?
        walkActiveBranch(until: { node in
            found = value(node)
            return found != nil
        })
        return found
    }

    /// The screen of `id`, without copying its state; `nil` for an unknown id.
    public func screen(of id: ModelID) -> String? { nodes[id]?.screen }

    /// Model `id`'s screen and the title it carries itself — its own, else a dialog's headline — read from the
    /// graph without building its ``ModelState`` (the window's `Title` property after every change); `nil` for no
    /// such model.
    public func ownTitle(of id: ModelID) -> (screen: String, title: String?)? {
        guard let node = nodes[id] else { return nil }
        if let title = node.title { return (node.screen, title) }
        switch node.kind {
        case .alert, .confirmationDialog: return (node.screen, node.dialog?.title ?? "")
        default: return (node.screen, nil)
        }
    }

    /// What a walk down the graph reads at `id`, in one lookup and without copying the model's state as
    /// ``model(_:)`` does; `nil` for an unknown id. O(1), or O(tabs) for a tab container.
    ///
    /// The step's ``BranchStep/child`` is the container child the walk continues into: the last stack element
    /// (the first with `stackRoot`), the tab `tab` (the selected one when `nil`), the switched model, or a custom
    /// container's selected child; `nil` for a screen, a dialog, an unknown tab or a container with no child.
    public func branchStep(at id: ModelID, stackRoot: Bool = false, tab: String? = nil) -> BranchStep? {
        guard let node = nodes[id] else { return nil }
        let child: ModelID?
        switch node.kind {
        case .screen, .alert, .confirmationDialog: child = nil
        case .stack: child = stackRoot ? node.path.first?.model : node.path.last?.model
        case .tabs:
            let wanted = tab ?? node.selectedTab
            child = node.tabs.first { $0.id == wanted }?.model
        case .switched: child = node.switchedModel
        case .custom: child = node.selectedCustomChild
        }
        return BranchStep(kind: node.kind, presented: node.presented, child: child)
    }

    /// Walks the active branch from the root as ``activeModelID`` describes, until `stop(node)` is true;
    /// returns the id where it stopped.
    @discardableResult
    private func walkActiveBranch(until stop: (Node) -> Bool) -> ModelID {
        // One read of `nodes` for the whole walk: each read of a class's stored property is a dynamic
        // exclusivity check, and this runs several times per change.
        let nodes = self.nodes
        var current = rootID
        while let node = nodes[current], !stop(node) {
            guard let next = node.presented ?? node.lastContainerChild, next != current else { break }
            current = next
        }
        return current
    }

    /// The ids from the root down to the active model, in order.
    public var activePath: [ModelID] {
        let nodes = self.nodes
        var result: [ModelID] = []
        var current: ModelID? = activeModelID
        while let id = current {
            result.append(id)
            current = nodes[id]?.parent
        }
        return result.reversed()
    }

    /// Whether `id` is the root, sits in a presentation slot, or is a switched model — the brief's canPresent.
    public func canPresent(_ id: ModelID) -> Bool {
        guard let node = nodes[id] else { return false }
        return canPresent(node)
    }
}
