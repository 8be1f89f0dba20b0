/// Bounds on what one window's graph may hold, checked before a change commits.
///
/// Every command creates models from specs; these limits make the size of a window, and so of every
/// message that describes it (its state, its routes, its change signals), bounded by configuration,
/// not by what a client sends. A change over a limit throws ``NavigationError/limitsExceeded(_:)`` and
/// changes nothing.
///
/// ```swift
/// var limits = GraphLimits()
/// limits.maxStackDepth = 64
/// let window = try NavigationWindow(root: .stacked(.screen("home")), configuration: .init(limits: limits))
/// ```
public struct GraphLimits: Hashable, Sendable {
    /// Models in one window at most (the root and every container count).
    public var maxModels: Int
    /// Elements in one stack's path at most.
    public var maxStackDepth: Int
    /// UTF-8 bytes of a name at most: screen, tab id, action id, custom kind, transition, icon, parameter key.
    public var maxNameBytes: Int
    /// UTF-8 bytes of a text at most: a title, a dialog message, a parameter value.
    public var maxTextBytes: Int
    /// Parameters per model at most.
    public var maxParams: Int
    /// Tabs per tab container and actions per dialog at most.
    public var maxChildren: Int
    /// The window's ``NavigationWindow/contentCost`` at most.
    public var maxContentCost: Int
    /// Scheduled batches waiting in one window at most (`schedule`).
    public var maxScheduled: Int
    /// The longest delay of a scheduled batch, in milliseconds.
    public var maxScheduleDelayMs: Int

    /// Creates limits; the defaults are the daemon's documented ones (`Docs/reliability.md`).
    public init(
        maxModels: Int = 32_768, maxStackDepth: Int = 16_384, maxNameBytes: Int = 255, maxTextBytes: Int = 4096,
        maxParams: Int = 32, maxChildren: Int = 32, maxContentCost: Int = 8 << 20, maxScheduled: Int = 64,
        maxScheduleDelayMs: Int = 7 * 24 * 3_600_000
    ) {
        self.maxScheduled = maxScheduled
        self.maxScheduleDelayMs = maxScheduleDelayMs
        self.maxModels = maxModels
        self.maxStackDepth = maxStackDepth
        self.maxNameBytes = maxNameBytes
        self.maxTextBytes = maxTextBytes
        self.maxParams = maxParams
        self.maxChildren = maxChildren
        self.maxContentCost = maxContentCost
    }

    /// No limits at all (tests and tools that build graphs they trust).
    public static let unlimited = GraphLimits(
        maxModels: .max, maxStackDepth: .max, maxNameBytes: .max, maxTextBytes: .max, maxParams: .max,
        maxChildren: .max, maxContentCost: .max, maxScheduled: .max, maxScheduleDelayMs: .max)

    /// UTF-8 bytes of a tag at most.
    public static let maxTagBytes = 256

    /// A tag is non-empty, at most ``maxTagBytes`` UTF-8 bytes and has no NUL byte.
    static func checkTag(_ tag: String) throws(NavigationError) {
        guard !tag.isEmpty else { throw .invalidSpec("a tag is empty") }
        try checkNoNUL(tag, "tag '\(tag.prefix(64))'")
        guard tag.utf8.count <= maxTagBytes else {
            throw .limitsExceeded("a tag is \(tag.utf8.count) bytes; tags are limited to \(maxTagBytes)")
        }
    }

    func checkName(_ text: String, _ what: @autoclosure () -> String) throws(NavigationError) {
        try Self.checkNoNUL(text, what())
        guard text.utf8.count <= maxNameBytes else {
            throw .limitsExceeded("\(what()) is \(text.utf8.count) bytes; names are limited to \(maxNameBytes)")
        }
    }

    func checkText(_ text: String, _ what: @autoclosure () -> String) throws(NavigationError) {
        try Self.checkNoNUL(text, what())
        guard text.utf8.count <= maxTextBytes else {
            throw .limitsExceeded("\(what()) is \(text.utf8.count) bytes; texts are limited to \(maxTextBytes)")
        }
    }

    /// Every string of the graph is sent over D-Bus, whose strings cannot carry a NUL byte; one that got in
    /// would make every later read of the window fail.
    static func checkNoNUL(_ text: String, _ what: @autoclosure () -> String) throws(NavigationError) {
        guard !text.utf8.contains(0) else { throw .invalidSpec("\(what()) contains a NUL byte") }
    }

    /// Checks the strings and counts of one spec (not its children, which are checked as they are created).
    func check(_ spec: ModelSpec) throws(NavigationError) {
        try checkName(spec.screen, "screen name")
        if let tag = spec.tag { try Self.checkTag(tag) }
        if let title = spec.title { try checkText(title, "the title of '\(spec.screen.prefix(64))'") }
        guard spec.params.count <= maxParams else {
            throw .limitsExceeded("'\(spec.screen.prefix(64))' has \(spec.params.count) parameters; at most \(maxParams)")
        }
        for (key, value) in spec.params {
            try checkName(key, "a parameter name")
            try checkText(value, "parameter '\(key.prefix(64))'")
        }
        switch spec.content {
        case .screen, .switched:
            break
        case .stack(let path, _):
            guard path.count <= maxStackDepth else {
                throw .limitsExceeded("a path of \(path.count) elements; stacks hold at most \(maxStackDepth)")
            }
            for element in path { if let transition = element.transition { try checkName(transition, "a transition") } }
        case .tabs(let tabs, _):
            guard tabs.count <= maxChildren else { throw .limitsExceeded("\(tabs.count) tabs; at most \(maxChildren)") }
            for tab in tabs {
                try checkName(tab.id, "a tab id")
                try checkText(tab.title, "a tab title")
                if let icon = tab.icon { try checkName(icon, "a tab icon") }
            }
        case .custom(let kind, let children, _):
            try checkName(kind, "a custom container kind")
            guard children.count <= maxChildren else {
                throw .limitsExceeded("\(children.count) children; at most \(maxChildren)")
            }
        case .alert(let content), .confirmationDialog(let content):
            try checkText(content.title, "a dialog title")
            if let message = content.message { try checkText(message, "a dialog message") }
            guard content.actions.count <= maxChildren else {
                throw .limitsExceeded("\(content.actions.count) dialog actions; at most \(maxChildren)")
            }
            for action in content.actions {
                try checkName(action.id, "an action id")
                try checkText(action.title, "an action title")
                // No `schedule` in an action: an action runs from a report, which the journal replays; a deadline computed
                // then would be later than the one first scheduled.
                guard !action.commands.contains(where: { $0.schedules }) else {
                    throw .invalidSpec("dialog action '\(action.id.prefix(64))' cannot schedule commands")
                }
            }
        }
    }
}
