/// What a tab container does when the selected tab is selected again, and what ``NavigationCommand/goBack(result:)``
/// does at a tab's root: declared per tab container (`"reselect"`, `"backBehavior"` in its spec).
///
/// ```swift
/// .tabs([home, settings], policy: TabPolicy(reselect: .popToRoot, backBehavior: .history))
/// ```
public struct TabPolicy: Hashable, Sendable {
    /// Selecting the selected tab: nothing, or its stack popped to its root.
    public var reselect: TabReselect
    /// `goBack` at the root of the selected tab, with nothing else to remove.
    public var backBehavior: TabBackBehavior

    /// Creates a policy; the defaults are the behaviour without one (nothing on reselect, no tab switch back).
    public init(reselect: TabReselect = .none, backBehavior: TabBackBehavior = .none) {
        self.reselect = reselect
        self.backBehavior = backBehavior
    }

    /// No policy: reselecting does nothing and `goBack` never switches tabs.
    public static let `default` = TabPolicy()

    /// Whether the container keeps a selection history (``TabBackBehavior/history``).
    public var keepsHistory: Bool { backBehavior == .history }
}

/// What selecting the already selected tab does (`"reselect"`).
public enum TabReselect: String, Hashable, Sendable, CaseIterable, Codable {
    /// Nothing (the request is for the state the window is in: no change).
    case none
    /// The nearest stack of the tab's branch is popped to its root, in one change.
    case popToRoot
}

/// What `goBack` does at the root of the selected tab (`"backBehavior"`), React Navigation's `backBehavior`.
public enum TabBackBehavior: String, Hashable, Sendable, CaseIterable, Codable {
    /// Nothing: `goBack` fails with `nothingToGoBack` and `CanGoBack` is false.
    case none
    /// The tab selected before this one (the container remembers its selections, each tab once).
    case history
    /// The tab before this one in the container's order; nothing at the first tab.
    case order
    /// The first tab; nothing when it is selected (React Navigation's `firstRoute`).
    case firstTab
    /// The tab the container started with, which need not be the first; nothing when it is selected (React
    /// Navigation's `initialRoute`). The container keeps it as its one history entry.
    case initialRoute
    /// The tab selected before this one, every visit counted, repeats included, newest last (React Navigation's
    /// `fullHistory`); going back takes the newest off. At most ``TabState/maxFullHistory`` visits, oldest dropped.
    case fullHistory
}

/// A tab container's policy and selection history, as a snapshot carries them (``ModelState/tabState``).
public struct TabState: Hashable, Sendable {
    /// The declared policy.
    public var policy: TabPolicy
    /// The tabs selected before the current one, oldest first, each at most once (so never longer than the
    /// number of tabs) with ``TabBackBehavior/history``; every visit (at most ``maxFullHistory``) with
    /// ``TabBackBehavior/fullHistory``; the tab it started with, alone, with ``TabBackBehavior/initialRoute``.
    public var history: [String]

    /// The most visits a ``TabBackBehavior/fullHistory`` container remembers.
    public static let maxFullHistory = 64

    /// Creates a tab state.
    public init(policy: TabPolicy = .default, history: [String] = []) {
        self.policy = policy
        self.history = history
    }
}

/// A tab policy's JSON form, the same in a spec and in a snapshot: the tab container object's `"reselect"` and
/// `"backBehavior"` keys, each written only when not `"none"` (so windows without a policy keep their bytes).
extension TabPolicy {
    /// Decodes the two keys of a tab container's object; an absent one is `none`.
    init(from c: KeyedDecodingContainer<JSONKey>) throws {
        self.init(
            reselect: try c.decodeTagIfPresent(TabReselect.self, forKey: "reselect") ?? .none,
            backBehavior: try c.decodeTagIfPresent(TabBackBehavior.self, forKey: "backBehavior") ?? .none)
    }

    /// Encodes the keys that differ from the default.
    func encode(into c: inout KeyedEncodingContainer<JSONKey>) throws {
        if reselect != .none { try c.encode(reselect, forKey: "reselect") }
        if backBehavior != .none { try c.encode(backBehavior, forKey: "backBehavior") }
    }
}
