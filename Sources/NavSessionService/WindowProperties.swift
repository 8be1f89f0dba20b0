import DBusKit
import NavSessionInterface
import NavigationCore
import NavigationSession

/// The values of one window's Window1 properties, compared after each operation so `PropertiesChanged`
/// lists only what differs, with the values computed here (no property getter runs for the signal).
///
/// `Routes` is not here: its value grows with the window, so it is announced as invalidated
/// (`EmitsChangedSignal=invalidates`) when a change has graph steps, and computed only when read.
struct WindowProperties: Sendable, Equatable {
    var scene: String
    var title: String
    var version: UInt64
    var activeScreen: String
    var activeModel: UInt64
    var selectedTab: String
    var abilities: WindowAbilities
    var pendingDeepLink: String
    var activeTag: String
    var pendingNavigation: String
    var protected: String
    var settledVersion: UInt64
    var settledBy: String
    /// `CanGoForward`: the forward list is not empty and the move would be admitted.
    var canGoForward: Bool
    /// `CanUndo`, `CanRedo`, `UndoLabel` (Session+Undo.swift).
    var canUndo: Bool
    var canRedo: Bool
    var undoLabel: String
    /// `Group` (Session+Groups.swift).
    var group: String
    /// `Prepared` (NavigationWindow+Prepared.swift).
    var prepared: String
    /// `VisibleModels` (Panes.swift).
    var visibleModels: [UInt64]
    /// `Renderers` (Session+Renderers.swift).
    var renderers: String
    /// A guard provider's question the `Can*` values were read without (``NavigationSession/Session/offers(of:)``):
    /// the daemon asks it and reads the properties again with the answer. Not a property.
    var probe: GuardQuestion?

    /// Reads the properties of `window` (O(active branch)).
    init(_ window: SessionWindow, session: Session) {
        // The active model once: each property would otherwise walk the active branch again.
        let activeID = window.graph.activeModelID
        let active = window.graph.ownTitle(of: activeID)
        scene = window.scene
        title = session.title(of: active)
        version = UInt64(clamping: window.version)
        activeScreen = active?.screen ?? ""
        activeModel = UInt64(clamping: activeID.rawValue)
        selectedTab = window.selectedTab
        let offers = session.offers(of: window)
        abilities = offers.abilities
        canGoForward = offers.canGoForward
        probe = offers.probe
        pendingDeepLink = window.pendingDeepLink ?? ""
        activeTag = window.graph.activeTag ?? ""
        pendingNavigation = window.pending == nil ? "" : (try? session.pendingNavigationJSON(window: window.number)) ?? ""
        protected = window.graph.protectionsJSON
        settledVersion = UInt64(clamping: window.settledVersion)
        settledBy = window.settledBy ?? ""
        (canUndo, canRedo) = session.undoAbilities(of: window)
        undoLabel = canUndo ? session.undoLabel(of: window) : ""
        group = window.group ?? ""
        prepared = window.graph.preparedJSON
        visibleModels = session.visibleModels(of: window).map { UInt64(clamping: $0.rawValue) }
        renderers = window.renderersJSON
    }

    /// One Window1 property: its name, type and change policy, and its value (nil: computed when read).
    struct Row: Sendable {
        let name: MemberName
        let type: SignatureType
        let emits: Interface.Property.EmitsChangedSignal
        let value: (@Sendable (WindowProperties) -> Value)?
        /// Whether two readings hold the same value, where building both values to compare them would allocate
        /// (an array's); `nil`: the values are compared.
        var same: (@Sendable (WindowProperties, WindowProperties) -> Bool)? = nil
    }

    /// Window1's properties as data, in declaration order: the interface declares them from this table and
    /// ``changes(from:)`` compares them by it, so a property is added in one place.
    static let rows: [Row] = [
        Row(.init(trusted: W.scene), .string, .const) { .string($0.scene) },
        Row(.init(trusted: W.title), .string, .true) { .string($0.title) },
        Row(.init(trusted: W.version), .uint64, .true) { .uint64($0.version) },
        Row(.init(trusted: W.activeScreen), .string, .true) { .string($0.activeScreen) },
        Row(.init(trusted: W.activeModel), .uint64, .true) { .uint64($0.activeModel) },
        // Grows with the window: announced as invalidated, computed only when read.
        Row(.init(trusted: W.routes), .string, .invalidates, nil),
        Row(.init(trusted: W.selectedTab), .string, .true) { .string($0.selectedTab) },
        Row(.init(trusted: W.canGoBack), .boolean, .true) { .boolean($0.abilities.canGoBack) },
        Row(.init(trusted: W.canPop), .boolean, .true) { .boolean($0.abilities.canPop) },
        Row(.init(trusted: W.canDismiss), .boolean, .true) { .boolean($0.abilities.canDismiss) },
        Row(.init(trusted: W.pendingDeepLink), .string, .true) { .string($0.pendingDeepLink) },
        Row(.init(trusted: W.activeTag), .string, .true) { .string($0.activeTag) },
        Row(.init(trusted: W.pendingNavigation), .string, .true) { .string($0.pendingNavigation) },
        Row(.init(trusted: W.protected), .string, .true) { .string($0.protected) },
        Row(.init(trusted: W.settledVersion), .uint64, .true) { .uint64($0.settledVersion) },
        Row(.init(trusted: W.settledBy), .string, .true) { .string($0.settledBy) },
        // Back and forward.
        Row(.init(trusted: W.canGoForward), .boolean, .true) { .boolean($0.canGoForward) },
        // Undo and redo.
        Row(.init(trusted: W.canUndo), .boolean, .true) { .boolean($0.canUndo) },
        Row(.init(trusted: W.canRedo), .boolean, .true) { .boolean($0.canRedo) },
        Row(.init(trusted: W.undoLabel), .string, .true) { .string($0.undoLabel) },
        // Window groups.
        Row(.init(trusted: W.group), .string, .true) { .string($0.group) },
        // Prepared models.
        Row(.init(trusted: W.prepared), .string, .true) { .string($0.prepared) },
        // Panes.
        Row(
            name: .init(trusted: W.visibleModels), type: .array(.uint64), emits: .true,
            value: { .array(.uint64, $0.visibleModels.map(Value.uint64)) },
            same: { $0.visibleModels == $1.visibleModels }),
        // Renderer roles.
        Row(.init(trusted: W.renderers), .string, .true) { .string($0.renderers) },
    ]

    private typealias W = NavSessionInterface.Window1

    /// `Routes`, listed as invalidated when a change moved the route view.
    static let routes = MemberName(trusted: W.routes)

    /// The rows whose changes are announced with their values: `Version` first (a client that tracks versions
    /// reads it before the rest), then declaration order.
    private static let announced: [Row] = {
        let sent = rows.filter { $0.emits == .true && $0.value != nil }
        return sent.filter { $0.name.rawValue == W.version } + sent.filter { $0.name.rawValue != W.version }
    }()

    /// The properties whose value is JSON (``EmittedDocuments`` records them when announced or read).
    static let jsonProperties: Set = [W.routes, W.protected, W.pendingNavigation, W.prepared, W.renderers]

    /// The properties that differ between `self` and `before`, with their new values.
    func changes(from before: WindowProperties) -> [(name: MemberName, value: Value)] {
        guard self != before else { return [] }
        var changes: [(name: MemberName, value: Value)] = []
        // A push or a pop changes about ten properties: one allocation for them, not one per doubling.
        changes.reserveCapacity(12)
        // By index: a row read whole is a copy (its name, its type and its closure retained and released).
        let rows = Self.announced
        for index in rows.indices {
            guard let value = rows[index].value else { continue }
            if let same = rows[index].same {
                if !same(self, before) { changes.append((rows[index].name, value(self))) }
                continue
            }
            let now = value(self)
            if now != value(before) { changes.append((rows[index].name, now)) }
        }
        if let recorder = EmittedDocuments.shared {
            // Test only: the JSON properties as PropertiesChanged announces them (PendingNavigation "" = none).
            for (name, value) in changes where Self.jsonProperties.contains(name.rawValue) {
                if let text = value.string, !text.isEmpty { recorder.record(name.rawValue, text) }
            }
        }
        return changes
    }
}

extension WindowProperties.Row {
    init(
        _ name: MemberName, _ type: SignatureType, _ emits: Interface.Property.EmitsChangedSignal,
        _ value: (@Sendable (WindowProperties) -> Value)?
    ) {
        self.init(name: name, type: type, emits: emits, value: value)
    }
}

/// What one window's `PropertiesChanged` carries after an operation.
struct WindowPropertyChanges: Sendable {
    /// Properties with their new values.
    var changed: [(name: MemberName, value: Value)] = []
    /// Whether the route view may have changed (`Routes` is listed as invalidated).
    var routesInvalidated = false

    var isEmpty: Bool { changed.isEmpty && !routesInvalidated }
}
