/// Everything one applied change did, so observers need no whole-graph diff.
///
/// Produced by every successful ``NavigationWindow/apply(_:)``, ``NavigationWindow/execute(_:from:animated:)``
/// and ``NavigationWindow/report(_:)``; also passed to ``NavigationWindow/changeHandler``.
public struct ChangeEvent: Hashable, Sendable, Codable {
    /// The window version after the change (previous + 1).
    public var version: Int
    /// The commands or report that caused it.
    public var cause: ChangeCause
    /// True when any command asked for animation; reports are never animated (the user already saw it).
    public var animated: Bool
    /// Models attached by this change, in creation order (pre-order within each new subtree).
    public var started: [ModelID]
    /// Models whose life ended, in the brief's pre-order (presented child before container children).
    public var finished: [ModelID]
    /// Models whose own container state or slot changed (stack path, slot, tab selection, switched model).
    public var modified: [ModelID]
    /// Messages delivered by this change, in delivery order (application messages, then `finished`,
    /// `suspended`, `resumed`).
    public var messages: [DeliveredMessage]
    /// Effects enqueued by this change, in order.
    public var effects: [QueuedEffect]
    /// The active model after the change.
    public var activeModel: ModelID
    /// True when the commands asked for the state the window was already in (e.g. `stackDropToRoot` at
    /// the root, selecting the selected tab): ``version`` is the unchanged version and nothing else is set.
    /// Such a change is not journaled and emits no `Changed`.
    public var isNoOp = false
    /// Models of branches this change kept (a switched container left them and keeps them): ids kept, not
    /// finished, off the active branch; each also gets a `suspended` message. In pre-order per branch. Not part
    /// of the event's JSON (the messages carry it).
    public var suspended: [ModelID] = []
    /// Models of kept branches this change brought back (the same ids); each also gets a `resumed` message.
    public var resumed: [ModelID] = []
    /// The steps the graph went through, in order (``NavigationStep``), for renderers to animate. Not part
    /// of the event's JSON: Window1 `Changed` carries them as `steps_json` (``NavigationStep/json(_:)``).
    public var steps: [NavigationStep] = []

    enum CodingKeys: String, CodingKey {
        case version, cause, animated, started, finished, modified, messages, effects, activeModel
    }

    /// Creates an event; the window builds these, tests may too.
    public init(
        version: Int, cause: ChangeCause, animated: Bool, started: [ModelID], finished: [ModelID],
        modified: [ModelID], messages: [DeliveredMessage], effects: [QueuedEffect], activeModel: ModelID
    ) {
        self.version = version
        self.cause = cause
        self.animated = animated
        self.started = started
        self.finished = finished
        self.modified = modified
        self.messages = messages
        self.effects = effects
        self.activeModel = activeModel
    }

    /// The event of a change that changed nothing (``isNoOp``).
    public init(unchangedAt version: Int, cause: ChangeCause, activeModel: ModelID) {
        self.init(
            version: version, cause: cause, animated: false, started: [], finished: [], modified: [], messages: [],
            effects: [], activeModel: activeModel)
        isNoOp = true
    }
}
