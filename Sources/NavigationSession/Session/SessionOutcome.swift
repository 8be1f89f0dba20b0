import NavigationCore
import NavigationRouting

/// Something an operation did that a D-Bus layer turns into a signal, in the order it happened.
///
/// One call can cause several: an action that logs out and opens a window, a deep link that opens a
/// window then navigates in it, a client vanishing with three windows.
public enum SessionEvent: Hashable, Sendable {
    /// A window opened (ObjectManager `InterfacesAdded`; Session1 `Windows` and `Version` changed).
    case windowOpened(WindowNumber, scene: String)
    /// A window closed (ObjectManager `InterfacesRemoved`; Session1 `Windows` and `Version` changed).
    case windowClosed(WindowNumber, scene: String)
    /// A window changed (Window1 `Changed`); `steps` are the planned route states when the change
    /// needs more than one renderer step, else empty; `causeJSON` is the change's cause as `Changed`'s
    /// `cause_json` carries it (compact, sorted keys, slashes unescaped), encoded once with the journal line.
    case changed(WindowNumber, ChangeEvent, steps: [NavigationStep], causeJSON: String)
    /// Models moved between windows (`MoveModel`), before the two windows' `changed` events: whoever keeps something
    /// by model (a follow) carries it to the target window and id.
    indirect case moved(MoveRecord)
    /// The manifest was replaced (Session1 `ReloadManifest`): the session's manifest-derived properties changed.
    case manifestReloaded
    /// Window `number`'s group changed (Session1 `GroupWindows`): its `Group` property.
    case grouped(WindowNumber)
    /// What a screen reader hears after a change of window `number` (Window1 `Announcement`).
    case announcement(WindowNumber, Announcements.Announcement)
    /// A change's steps planned for each registered renderer of window `number` (Window1 `Steps`, to each alone).
    case rendererSteps(WindowNumber, version: Int, [RendererSteps])
    /// A message was delivered in a window (Window1 `Message`), including `finished`.
    case message(WindowNumber, DeliveredMessage)
    /// A URL outside the application's schemes, announced and never opened (Window1 `OpenExternalURL`).
    case externalURL(WindowNumber, String)
    /// An application-defined trigger (Window1 `Effect`).
    case trigger(WindowNumber, name: String, payload: String)
    /// An effect enqueued by a command in the window could not be carried out (e.g. `openWindow` of an
    /// unknown scene, or a waiting deep link that no longer applies); logged, never thrown.
    case effectFailed(WindowNumber, Effect, SessionError)
    /// A change the window was to make could not be made, and nothing changed: a scheduled batch at its deadline
    /// (`effect` `scheduledFailed`, with its `id`), a change re-applied from a protection's dialog (`reapplyFailed`).
    /// Announced as Window1 `Effect(effect, {payload: "[<id>: ]<error name>: <message>"})`, the error's D-Bus name
    /// given by the service, which maps every typed error to its name.
    case changeFailed(WindowNumber, effect: String, id: String?, SessionError)
}

/// How the session handled a URL.
public enum DeepLinkResult: Hashable, Sendable {
    /// The deep link matched `route` and the window navigated (or already was at the destination).
    case applied(route: String)
    /// The deep link matched `route` but its scene needs its switched root in `state` (the demo: logged
    /// in); it waits in the window and is applied right after the window switches to that state.
    case deferred(route: String, state: String)
    /// Another scheme: announced as ``SessionEvent/externalURL(_:_:)`` on the window, never opened.
    case external
}

/// What a session operation did: the window it was about, versions after it, and its events.
public struct SessionOutcome: Hashable, Sendable {
    /// The window the operation returned or acted on (`nil` for session-wide operations).
    public var window: WindowNumber?
    /// That window's version after the operation (`nil` if it has none or was closed).
    public var windowVersion: Int?
    /// The session version after the operation (bumped on every open and close).
    public var sessionVersion: UInt64
    /// Everything that happened, in order.
    public var events: [SessionEvent]
    /// For `openURL`: how the URL was handled.
    public var deepLink: DeepLinkResult?

    /// Windows closed by the operation, in order.
    public var closedWindows: [WindowNumber] {
        events.compactMap { if case .windowClosed(let number, _) = $0 { number } else { nil } }
    }

    /// Windows opened by the operation, in order.
    public var openedWindows: [WindowNumber] {
        events.compactMap { if case .windowOpened(let number, _) = $0 { number } else { nil } }
    }

    /// The change events of `window`, in order.
    public func changes(of window: WindowNumber) -> [ChangeEvent] {
        events.compactMap { if case .changed(window, let event, _, _) = $0 { event } else { nil } }
    }

    /// The planned steps of the last change of `window` (empty when one step suffices).
    public func steps(of window: WindowNumber) -> [NavigationStep] {
        events.last { if case .changed(window, _, _, _) = $0 { true } else { false } }.flatMap {
            if case .changed(_, _, let steps, _) = $0 { steps } else { nil }
        } ?? []
    }
}

/// Limits that keep one client from exhausting the daemon.
public struct SessionLimits: Hashable, Sendable {
    /// Open windows at most (OpenWindow beyond it: `LimitsExceeded`).
    public var maxWindows: Int
    /// Commands per batch at most.
    public var maxBatchCommands: Int
    /// Bytes of batch or command JSON at most.
    public var maxJSONBytes: Int
    /// What each window's graph may hold (models, stack depth, string sizes, content).
    public var graph: GraphLimits
    /// The content cost of all windows together at most (``NavigationWindow/contentCost``); it bounds
    /// the messages that describe every window at once (ObjectManager's `GetManagedObjects`).
    public var maxSessionContentCost: Int
    /// Route entries (the sum of the lengths of all planned states) a change's `steps` or a `Plan`
    /// reply may carry; above it `Changed` carries no steps and `Plan` fails with `LimitsExceeded`.
    public var maxPlannedRouteEntries: Int
    /// Routes in each list given to `Plan` at most.
    public var maxPlanRoutes: Int
    /// Bytes of an application message's name and of its payload at most (`SendMessage`).
    public var maxMessageBytes: Int
    /// The content cost one client's changes may have created at most, over all windows (its "per-client
    /// content share"); ``maxSessionContentCost`` stays the ceiling of all clients together.
    public var maxClientContentCost: Int
    /// Open windows one client may have opened at most (its share of ``maxWindows``).
    public var maxClientWindows: Int
    /// `SendMessage` calls per client (the "per-client message rate", counted in calls).
    public var clientMessages: RateLimit
    /// `SendMessage` bytes (name and payload) per client (the "per-client message rate", counted in bytes).
    public var clientMessageBytes: RateLimit
    /// History bytes (the size of each change's entry, whether or not it changed the graph) one client (one peer
    /// process) may add: a burst, then a rate (the "per-client history share"); past it the client's changes are
    /// `LimitsExceeded` until it refills. The windows' and the session's byte bounds still hold for everyone.
    public var clientHistoryBytes = RateLimit(perSecond: 1 << 20, burst: 8 << 20)
    /// Named sessions kept at most (Session1 `SaveSession`).
    public var maxNamedSessions = 32
    /// Bytes of the named sessions' snapshots together at most.
    public var maxNamedSessionBytes = 16 << 20
    /// Named sessions one client (one peer process) may have saved at most (its share of ``maxNamedSessions``).
    public var maxClientNamedSessions = 8
    /// Recently closed windows remembered at most (Session1 `ListClosedWindows`); 0 keeps none.
    public var maxClosedWindows: Int = 10
    /// Protection marks one client (one peer process) may hold at most, over all windows (per-client mark share).
    public var maxClientMarks = 128
    /// Scheduled batches one client (one peer process) may have waiting at most, over all windows (per-client
    /// schedule share).
    public var maxClientScheduled = 256
    /// Bytes (content cost) of the recently closed windows together at most; the oldest go first, and a window
    /// larger than this is not remembered.
    public var maxClosedWindowBytes = 8 << 20
    /// Changes each window's history lists (Window1 `GetHistory`); `GetStateAt` rebuilds the
    /// state after any of them. The oldest go first (Docs/persistence.md, "History").
    public var historyLength = 64
    /// Bytes of a window's history entries (their batches' JSON) at most; past it the oldest are folded into the
    /// history's base until half remains (``historyLength`` bounds the count, this the size).
    public var maxHistoryBytes = 2 << 20
    /// Bytes of all open windows' history entries together at most; past it the changed window's, then the
    /// largest histories fold to half.
    public var maxSessionHistoryBytes = 32 << 20
    /// Bytes of a window's trace (Window1 `ExportTrace`) at most.
    public var maxTraceBytes = 16 << 20

    /// Creates limits; the defaults are documented in `Docs/reliability.md`.
    public init(
        maxWindows: Int = 256, maxBatchCommands: Int = 256, maxJSONBytes: Int = 256 * 1024,
        graph: GraphLimits = GraphLimits(), maxSessionContentCost: Int = 16 << 20,
        maxPlannedRouteEntries: Int = 8192, maxPlanRoutes: Int = 256, maxMessageBytes: Int = 64 * 1024,
        maxClientContentCost: Int = 8 << 20, maxClientWindows: Int = 64,
        clientMessages: RateLimit = RateLimit(perSecond: 200, burst: 200),
        clientMessageBytes: RateLimit = RateLimit(perSecond: 1 << 20, burst: 4 << 20)
    ) {
        self.maxWindows = maxWindows
        self.maxBatchCommands = maxBatchCommands
        self.maxJSONBytes = maxJSONBytes
        self.graph = graph
        self.maxSessionContentCost = maxSessionContentCost
        self.maxPlannedRouteEntries = maxPlannedRouteEntries
        self.maxPlanRoutes = maxPlanRoutes
        self.maxMessageBytes = maxMessageBytes
        self.maxClientContentCost = maxClientContentCost
        self.maxClientWindows = maxClientWindows
        self.clientMessages = clientMessages
        self.clientMessageBytes = clientMessageBytes
    }
}

extension DeliveredMessage {
    /// The core's own `finished` message to a model whose life ended; `Changed.finished` carries these.
    var isLifecycleFinish: Bool { sender == nil && message == .finished }
}
