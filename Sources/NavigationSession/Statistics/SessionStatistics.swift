import NavigationCore

/// Built-in analytics (Session1 `GetStats`, Docs/analytics.md): visits and time per screen, refusals per guard and
/// funnels over the manifest's declared paths, counted from the journal — every journaled change with its time — so
/// a restart (a snapshot, then its journal replayed) counts exactly what the running daemon counted.
///
/// A visit is a window's active screen becoming a screen; its time runs until the window shows another screen or
/// closes. A funnel counts the windows that reached each of its steps in order (its first step starts an attempt).
/// Bounded: at most ``maxScreens`` screen names (others count under `"(other)"`), the manifest's guards and funnels,
/// one running visit per open window.
public struct SessionStatistics: Hashable, Sendable, Codable {
    /// One screen's tally.
    public struct Screen: Hashable, Sendable, Codable {
        /// How many times a window's active screen became it.
        public var visits = 0
        /// Milliseconds windows showed it, visits still running not included.
        public var milliseconds: Int64 = 0
    }

    /// One guard's refusals, by verdict (`deny`, `redirect`, `timeout`, `absent`).
    public typealias Guard = [String: Int]

    /// What a window shows now: its screen since when, and how far it is along each funnel.
    struct Showing: Hashable, Sendable, Codable {
        var screen: String
        var since: Int64
        var funnels: [String: Int] = [:]
    }

    /// At most this many distinct screen names are counted (free-form screens could be unbounded).
    public static let maxScreens = 1024
    /// The name others are counted under past ``maxScreens``.
    public static let otherScreen = "(other)"

    /// The time of the first change counted (ms since the Unix epoch); `nil` before any.
    public internal(set) var since: Int64?
    /// Screen name → its tally.
    public internal(set) var screens: [String: Screen] = [:]
    /// Guard name → its refusals by verdict.
    public internal(set) var guards: [String: Guard] = [:]
    /// Funnel name → how many windows reached each step (step 1 first).
    public internal(set) var funnels: [String: [Int]] = [:]
    /// Open windows' running visits.
    var showing: [WindowNumber: Showing] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey { case since, screens, guards, funnels, showing }

    /// A running visit as stored: `{"window":3,"screen":"detail","since":…,"funnels":{"checkout":2}}`.
    private struct StoredShowing: Codable {
        var window: WindowNumber
        var screen: String
        var since: Int64
        var funnels: [String: Int]?
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        since = try c.decodeIfPresent(Int64.self, forKey: .since)
        screens = try c.decodeIfPresent([String: Screen].self, forKey: .screens) ?? [:]
        guards = try c.decodeIfPresent([String: Guard].self, forKey: .guards) ?? [:]
        funnels = try c.decodeIfPresent([String: [Int]].self, forKey: .funnels) ?? [:]
        for entry in try c.decodeIfPresent([StoredShowing].self, forKey: .showing) ?? [] {
            showing[entry.window] = Showing(screen: entry.screen, since: entry.since, funnels: entry.funnels ?? [:])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(since, forKey: .since)
        try c.encode(screens, forKey: .screens)
        if !guards.isEmpty { try c.encode(guards, forKey: .guards) }
        if !funnels.isEmpty { try c.encode(funnels, forKey: .funnels) }
        let running = showing.sorted { $0.key < $1.key }.map {
            StoredShowing(window: $0.key, screen: $0.value.screen, since: $0.value.since, funnels: $0.value.funnels.isEmpty ? nil : $0.value.funnels)
        }
        if !running.isEmpty { try c.encode(running, forKey: .showing) }
    }

    /// Window `number` shows `screen` at `time` (it may be the screen it showed: nothing then). `steps`: the
    /// manifest's funnels.
    mutating func observe(window number: WindowNumber, screen: String, at time: Int64, funnels steps: [String: [String]]) {
        if since == nil { since = time }
        if let current = showing[number], current.screen == screen { return }
        var positions = showing[number]?.funnels ?? [:]
        close(window: number, at: time)
        let name = screens[screen] != nil || screens.count < Self.maxScreens ? screen : Self.otherScreen
        screens[name, default: Screen()].visits &+= 1
        for (funnel, path) in steps where !path.isEmpty {
            var reached = positions[funnel] ?? 0
            if screen == path[0] {
                reached = 1
            } else if reached > 0, reached < path.count, path[reached] == screen {
                reached += 1
            } else {
                continue
            }
            positions[funnel] = reached
            var counts = funnels[funnel] ?? Array(repeating: 0, count: path.count)
            if counts.count != path.count { counts = Array(repeating: 0, count: path.count) }
            counts[reached - 1] &+= 1
            funnels[funnel] = counts
        }
        showing[number] = Showing(screen: name, since: time, funnels: positions)
    }

    /// Window `number` closed (or stopped showing) at `time`: its running visit ends.
    mutating func close(window number: WindowNumber, at time: Int64) {
        guard let current = showing.removeValue(forKey: number) else { return }
        let total = screens[current.screen]?.milliseconds ?? 0
        screens[current.screen, default: Screen()].milliseconds = Self.adding(total, Self.elapsed(from: current.since, to: time))
    }

    /// `to - from`, 0 when negative, saturating: times come from journal lines, which a damaged file may hold anywhere
    /// in Int64's range.
    static func elapsed(from: Int64, to: Int64) -> Int64 {
        let (difference, overflow) = to.subtractingReportingOverflow(from)
        if overflow { return to > from ? .max : 0 }
        return max(0, difference)
    }

    /// `a + b` saturating at `Int64.max` (both non-negative).
    static func adding(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// A guard refused or redirected a change.
    mutating func refused(guard name: String, verdict: String, at time: Int64) {
        if since == nil { since = time }
        guards[name, default: [:]][verdict, default: 0] &+= 1
    }

    /// Milliseconds `screen` has been shown up to `now`, running visits included.
    public func milliseconds(of screen: String, now: Int64) -> Int64 {
        var total = screens[screen]?.milliseconds ?? 0
        for current in showing.values where current.screen == screen {
            total = Self.adding(total, Self.elapsed(from: current.since, to: now))
        }
        return total
    }

    /// How many windows show `screen` now.
    public func showing(_ screen: String) -> Int { showing.values.count { $0.screen == screen } }
}
