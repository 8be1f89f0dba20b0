import Logging
import NavigationCore

/// Counting the journal into ``SessionStatistics`` (Session1 `GetStats`, Docs/analytics.md): each journaled line with
/// its time, once as it is written and once again as a restart replays it, so both count the same.
extension Session {
    /// Whether the line opens or closes a window: it carries its time for the statistics (a change's line carries it
    /// for the history anyway).
    static func isLifecycle(_ entry: JournalEntry) -> Bool {
        switch entry {
        case .open, .dismiss, .reopen, .openSnapshot, .guardDecided: true
        default: false
        }
    }

    /// Counts `entry`, written or replayed at `time` (nothing without a time: lines written before times were).
    func recordStatistics(_ entry: JournalEntry, time: Int64?) {
        guard let time else { return }
        switch entry {
        case .dismiss(let number, _, _):
            statistics.close(window: number, at: time)
        case .move(let from, let to):
            recordStatistics(from, time: time)
            recordStatistics(to, time: time)
        case .guardDecided(_, let name, let verdict):
            statistics.refused(guard: name, verdict: verdict, at: time)
        case .saveSession, .deleteSession, .group, .policy, .closeOnExit, .pendingDeepLink, .pendingCommands:
            break
        default:
            guard let window = windowsByNumber[entry.window], !window.graph.isClosed else { return }
            statistics.observe(window: window.number, screen: window.activeScreen, at: time, funnels: manifest.funnels)
        }
    }

    /// A guard refused (`deny`, `timeout`, `absent`) or redirected (`redirect`) a change of window `number`: counted and
    /// journaled (the service calls this with the `GuardDecided` it sends; the session for refusals it decides alone).
    public func recordGuardDecision(window number: WindowNumber, guard name: String, verdict: String) {
        guard !replaying, !name.isEmpty, manifest.guards[name] != nil else { return }
        do {
            try persist(.guardDecided(window: number, guard: name, verdict: verdict))
        } catch {
            logger.warning("journaling a guard's decision failed", metadata: ["error": "\(error.message)"])
        }
    }

    /// Session1 `GetStats`: the statistics as JSON, or as OpenMetrics text (`{"format":"openmetrics"}`), running
    /// visits counted up to now. `query_json`: `""` or an object with `format` (`json`, `openmetrics`) and `screens`
    /// (only these screens).
    /// - Throws: ``SessionError/invalidArguments(_:)`` (a malformed query).
    public func statisticsReport(queryJSON: String) throws(SessionError) -> String {
        var format = "json"
        var only: Set<String>?
        let trimmed = queryJSON.filter { !$0.isWhitespace }
        if !trimmed.isEmpty, trimmed != "{}" {
            let query: [String: JSONValue]
            do throws(JSONInput.Failure) {
                query = try JSONInput.decode([String: JSONValue].self, from: queryJSON, limit: 64 * 1024)
            } catch {
                throw .invalidArguments("query_json: \(error.message)")
            }
            for (key, value) in query.sorted(by: { $0.key < $1.key }) {
                switch (key, value) {
                case ("format", .string(let name)) where name == "json" || name == "openmetrics": format = name
                case ("format", _): throw .invalidArguments("query_json: 'format' is \"json\" or \"openmetrics\"")
                case ("screens", .array(let names)):
                    var set: Set<String> = []
                    for name in names {
                        guard case .string(let text) = name else { throw .invalidArguments("query_json: 'screens' lists names") }
                        set.insert(text)
                    }
                    only = set
                case ("screens", _): throw .invalidArguments("query_json: 'screens' lists names")
                default: throw .invalidArguments("query_json: unknown key '\(key)' (known: format, screens)")
                }
            }
        }
        let now = clock.wallMilliseconds()
        return format == "openmetrics" ? openMetrics(now: now, only: only) : statisticsJSON(now: now, only: only)
    }

    private func screenNames(_ only: Set<String>?) -> [String] {
        var names = Set(statistics.screens.keys)
        for current in statistics.showing.values { names.insert(current.screen) }
        return names.filter { only?.contains($0) ?? true }.sorted()
    }

    /// `{"funnels":{"checkout":{"reached":[4,2,1],"steps":["cart","address","done"]}},"guards":{"account":{"deny":2}},
    /// "now":…,"screens":{"detail":{"milliseconds":12000,"showing":1,"visits":3}},"since":…}` (keys sorted).
    func statisticsJSON(now: Int64, only: Set<String>?) -> String {
        var out: [UInt8] = []
        func string(_ text: String) { _ = DirectJSON.appendString(text, to: &out) }
        func integer(_ value: Int) { DirectJSON.appendInteger(value, to: &out) }
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func members<T>(_ items: [(String, T)], _ value: (T) -> Void) {
            raw("{")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                string(item.0)
                raw(":")
                value(item.1)
            }
            raw("}")
        }
        raw(#"{"funnels":"#)
        members(manifest.funnels.sorted(by: { $0.key < $1.key }).map { ($0.key, ($0.key, $0.value)) }) { funnel in
            let (name, steps) = funnel
            let reached = statistics.funnels[name].flatMap { $0.count == steps.count ? $0 : nil }
                ?? Array(repeating: 0, count: steps.count)
            raw(#"{"reached":["# + reached.map(String.init).joined(separator: ",") + #"],"steps":["#)
            for (index, step) in steps.enumerated() {
                if index > 0 { raw(",") }
                string(step)
            }
            raw("]}")
        }
        raw(#","guards":"#)
        members(statistics.guards.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }) { verdicts in
            members(verdicts.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }) { integer($0) }
        }
        raw(#","now":"#)
        integer(Int(now))
        raw(#","screens":"#)
        members(screenNames(only).map { ($0, $0) }) { name in
            raw(#"{"milliseconds":"#)
            integer(Int(statistics.milliseconds(of: name, now: now)))
            raw(#","showing":"#)
            integer(statistics.showing(name))
            raw(#","visits":"#)
            integer(statistics.screens[name]?.visits ?? 0)
            raw("}")
        }
        if let since = statistics.since {
            raw(#","since":"#)
            integer(Int(since))
        }
        raw("}")
        return String(decoding: out, as: UTF8.self)
    }

    /// The OpenMetrics text exposition (what Prometheus scrapes): counters `navsession_screen_visits`,
    /// `navsession_screen_seconds`, `navsession_guard_decisions`, `navsession_funnel_reached`; a gauge
    /// `navsession_screen_showing`; `# EOF` last.
    func openMetrics(now: Int64, only: Set<String>?) -> String {
        // A label value escapes backslashes, quotes and newlines.
        let escapes: [Character: String] = ["\\": "\\\\", "\"": "\\\"", "\n": "\\n"]
        func label(_ text: String) -> String { text.reduce(into: "") { $0 += escapes[$1] ?? String($1) } }
        func seconds(_ milliseconds: Int64) -> String {
            let whole = milliseconds / 1000
            let rest = milliseconds % 1000
            return "\(whole)." + String(String(rest + 1000).dropFirst())
        }
        let names = screenNames(only)
        var lines: [String] = []
        lines.append("# TYPE navsession_screen_visits counter")
        lines.append("# HELP navsession_screen_visits Times a window's active screen became the screen.")
        for name in names {
            lines.append("navsession_screen_visits_total{screen=\"\(label(name))\"} \(statistics.screens[name]?.visits ?? 0)")
        }
        lines.append("# TYPE navsession_screen_seconds counter")
        lines.append("# UNIT navsession_screen_seconds seconds")
        lines.append("# HELP navsession_screen_seconds Time windows showed the screen.")
        for name in names {
            lines.append("navsession_screen_seconds_total{screen=\"\(label(name))\"} \(seconds(statistics.milliseconds(of: name, now: now)))")
        }
        lines.append("# TYPE navsession_screen_showing gauge")
        lines.append("# HELP navsession_screen_showing Windows showing the screen now.")
        for name in names { lines.append("navsession_screen_showing{screen=\"\(label(name))\"} \(statistics.showing(name))") }
        lines.append("# TYPE navsession_guard_decisions counter")
        lines.append("# HELP navsession_guard_decisions Changes a guard refused or redirected, by verdict.")
        for (name, verdicts) in statistics.guards.sorted(by: { $0.key < $1.key }) {
            for (verdict, count) in verdicts.sorted(by: { $0.key < $1.key }) {
                lines.append("navsession_guard_decisions_total{guard=\"\(label(name))\",verdict=\"\(label(verdict))\"} \(count)")
            }
        }
        lines.append("# TYPE navsession_funnel_reached counter")
        lines.append("# HELP navsession_funnel_reached Windows that reached the funnel's step in order.")
        for (name, steps) in manifest.funnels.sorted(by: { $0.key < $1.key }) {
            let reached = statistics.funnels[name] ?? []
            for (index, step) in steps.enumerated() {
                let count = index < reached.count ? reached[index] : 0
                lines.append(
                    "navsession_funnel_reached_total{funnel=\"\(label(name))\",step=\"\(index + 1)\",screen=\"\(label(step))\"} \(count)")
            }
        }
        lines.append("# EOF")
        return lines.joined(separator: "\n") + "\n"
    }
}
