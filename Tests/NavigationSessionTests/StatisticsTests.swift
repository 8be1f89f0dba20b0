import Foundation
import Logging
import NavigationCore
import Synchronization
import Testing

@testable import NavigationSession

/// Built-in analytics (Docs/analytics.md): visits and exact time per screen under a test clock, guard decisions and
/// funnels, counted from the journal, so a restart reports the same.
struct StatisticsTests {
    /// A wall clock the test moves by hand.
    final class Wall: Sendable {
        let now = Mutex<Int64>(1_000_000)
        var clock: SessionClock { SessionClock(nanoseconds: { 0 }, wallMilliseconds: { self.read() }) }
        func read() -> Int64 { now.withLock { $0 } }
        func advance(_ milliseconds: Int64) { now.withLock { $0 += milliseconds } }
    }

    /// The demo manifest with a funnel, and its `account` guard denying while no provider is registered.
    static func manifest() throws -> Manifest {
        let json = Manifest.demoJSON
            .replacingOccurrences(of: #""format": 1,"#, with: #""format": 1, "funnels": {"browse": ["home", "detail", "editor"]},"#)
            .replacingOccurrences(of: #""onAbsent": "allow""#, with: #""onAbsent": "deny""#)
        return try Manifest(json: json)
    }

    func session(_ directory: String, _ wall: Wall, compaction: Int = 256) throws -> Session {
        let store = try SessionStore(directory: directory, compactionInterval: compaction, logger: Logger(label: "test"))
        return try Session(manifest: try Self.manifest(), store: store, clock: wall.clock)
    }

    func report(_ session: Session) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try session.statisticsReport(queryJSON: "").utf8)) as? [String: Any])
    }

    func screen(_ report: [String: Any], _ name: String) -> [String: Int] {
        ((report["screens"] as? [String: Any])?[name] as? [String: Int]) ?? [:]
    }

    @Test(arguments: [256, 1]) func visitsTimesGuardsAndFunnelsAreExactAndSurviveARestart(compaction: Int) throws {
        let directory = temporaryDirectory()
        let wall = Wall()
        do {
            let session = try session(directory, wall, compaction: compaction)
            let number = try #require(session.openWindow(scene: "main").window)
            wall.advance(5_000)
            try session.execute(window: number, command: .switchModel(.screen("main")))
            wall.advance(3_000)
            try session.execute(window: number, command: .stackAppend(.screen("detail", params: ["id": "1"])))
            wall.advance(1_000)
            // The guard refuses entering profile: no provider, onAbsent deny.
            #expect(throws: SessionError.self) {
                try session.execute(window: number, command: .stackAppend(.screen("profile")))
            }
            wall.advance(11_000)
            let report = try report(session)
            #expect(screen(report, "login") == ["visits": 1, "milliseconds": 5_000, "showing": 0])
            #expect(screen(report, "home") == ["visits": 1, "milliseconds": 3_000, "showing": 0])
            #expect(screen(report, "detail") == ["visits": 1, "milliseconds": 12_000, "showing": 1])
            #expect((report["guards"] as? [String: [String: Int]]) == ["account": ["absent": 1]])
            let browse = (report["funnels"] as? [String: Any])?["browse"] as? [String: Any]
            #expect(browse?["reached"] as? [Int] == [1, 1, 0])
            #expect(report["since"] as? Int == 1_000_000 && report["now"] as? Int == 1_020_000)
            wall.advance(1_000)
            _ = try session.dismissWindow(number)
        }
        wall.advance(60_000)
        let restored = try session(directory, wall, compaction: compaction)
        let report = try report(restored)
        #expect(screen(report, "detail") == ["visits": 1, "milliseconds": 13_000, "showing": 0])
        #expect(screen(report, "login") == ["visits": 1, "milliseconds": 5_000, "showing": 0])
        #expect((report["guards"] as? [String: [String: Int]]) == ["account": ["absent": 1]])
    }

    @Test func theOpenMetricsFormIsTheTextExposition() throws {
        let wall = Wall()
        let session = try Session(manifest: try Self.manifest(), store: nil, clock: wall.clock)
        let number = try #require(session.openWindow(scene: "main").window)
        wall.advance(1_500)
        try session.execute(window: number, command: .switchModel(.screen("main")))
        let text = try session.statisticsReport(queryJSON: #"{"format":"openmetrics","screens":["login"]}"#)
        #expect(text.contains("# TYPE navsession_screen_visits counter\n"))
        #expect(text.contains(#"navsession_screen_visits_total{screen="login"} 1"#))
        #expect(text.contains(#"navsession_screen_seconds_total{screen="login"} 1.500"#))
        #expect(!text.contains(#"navsession_screen_visits_total{screen="home"}"#))
        #expect(text.contains(#"navsession_funnel_reached_total{funnel="browse",step="1",screen="home"} 1"#))
        #expect(text.hasSuffix("# EOF\n"))
        for bad in [#"{"format":"xml"}"#, #"{"screen":[]}"#, "[1]", #"{"screens":[1]}"#] {
            #expect(throws: SessionError.self) { try session.statisticsReport(queryJSON: bad) }
        }
    }

    /// Times come from journal lines: any Int64 a damaged file holds is counted without trapping.
    @Test func extremeTimesSaturateInsteadOfTrapping() {
        var statistics = SessionStatistics()
        statistics.observe(window: 1, screen: "a", at: .min, funnels: [:])
        statistics.observe(window: 1, screen: "b", at: .max, funnels: [:])
        #expect(statistics.screens["a"]?.milliseconds == .max)
        statistics.observe(window: 2, screen: "a", at: 0, funnels: [:])
        statistics.close(window: 2, at: .max)
        #expect(statistics.screens["a"]?.milliseconds == .max)
        statistics.observe(window: 3, screen: "c", at: .max, funnels: [:])
        statistics.close(window: 3, at: .min)
        #expect(statistics.screens["c"]?.milliseconds == 0)
        #expect(statistics.milliseconds(of: "b", now: .min) == 0)
    }

    @Test func aFunnelMustNameDeclaredScreens() throws {
        let json = Manifest.demoJSON.replacingOccurrences(
            of: #""format": 1,"#, with: #""format": 1, "funnels": {"f": ["home", "nowhere"]},"#)
        #expect(throws: ManifestError.self) { try Manifest(json: json) }
    }
}
