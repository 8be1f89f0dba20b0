import DBusTestSupport
import Foundation
import Testing

/// Runs the debug `session-benchmark` with tiny counts so the benchmark cannot rot: it must start the echo, the
/// floor and the daemon, measure every section and print the ratios. No timing is asserted.
struct SessionBenchmarkSmokeTests {
    static func binary(_ name: String) throws -> URL { try BuiltProduct.require(name) }

    @Test func aTinyRunPrintsEveryRatioToTheFloor() async throws {
        let benchmark = try Self.binary("session-benchmark")
        let result = try await ToolRunner.run(
            benchmark.path,
            [
                "--sequential", "40", "--pipelined", "200", "--warmup", "10", "--repeat", "1", "--url-rounds", "5",
                "--depths", "0,100", "--depth-calls", "20", "--windows", "4", "--tool-runs", "2",
                "--benchmarks-dir", PrivateBus.repositoryRoot.appendingPathComponent("Benchmarks").path, "--json",
            ],
            environment: [:], timeout: .seconds(240))
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for section in ["sequential", "pipelined"] {
            let comparison = try #require(report[section] as? [String: Any], "\(section)")
            for target in ["echo", "floor", "navsessiond"] {
                let measurement = try #require(comparison[target] as? [String: Any], "\(section).\(target)")
                let run = try #require(measurement["run"] as? [String: Any])
                #expect((run["calls_per_sec"] as? Double ?? 0) > 0)
            }
            let ratios = try #require(comparison["ratio_to_floor"] as? [String: Any], "\(section).ratio_to_floor")
            #expect(ratios["calls_per_second"] is Double)
            #expect(ratios.keys.contains("service_cpu_per_call"))
            #expect(comparison["ratio_to_echo"] is [String: Any])
            let spread = try #require(comparison["repetition_ratios_to_floor"] as? [String: Any], "\(section)")
            let callsPerSecond = try #require(spread["calls_per_second"] as? [String: Double], "\(section)")
            #expect(callsPerSecond["lowest"] == callsPerSecond["highest"], "one repetition: one ratio")
            #expect(callsPerSecond["lowest"] == ratios["calls_per_second"] as? Double)
        }
        let host = try #require(report["host"] as? [String: Any])
        #expect(host["steal_percent"] is Double)
        #expect(host["load_average_at_end"] is Double)
        let url = try #require(report["url_signal"] as? [String: Any])
        #expect((url["ratio_to_floor"] as? [String: Any])?["p50"] is Double)
        let depth = try #require(report["depth"] as? [[String: Any]])
        #expect(depth.map { $0["depth"] as? Int } == [0, 100])
        #expect(depth.allSatisfy { $0["refused"] == nil })
        let windows = try #require(report["windows"] as? [String: Any])
        #expect(windows["count"] as? Int == 4)
        #expect(windows["refused"] == nil)
        let tools = try #require(report["tools"] as? [String: Any])
        #expect((tools["milliseconds"] as? [String: Any])?["navsessionctl"] is Double)
        #expect((report["goals"] as? [Any])?.isEmpty == false)
        // The targets' figures under their stable keys: every key present, `null` when not measured (no callgrind
        // here: the instruction ratios are null).
        let headline = try #require(report["headline"] as? [String: Any])
        #expect(Set(headline.keys) == [
            "cpu_per_call_ratio", "instructions_per_call_ratio", "depth_10000_over_depth_0", "followers_64_over_0",
            "marks_64_over_0", "navsessionctl_over_dbus_send",
        ])
        let cpu = try #require(headline["cpu_per_call_ratio"] as? [String: Any])
        #expect(Set(cpu.keys) == ["sequential", "pipelined"])
        #expect(headline["navsessionctl_over_dbus_send"] is Double)
        #expect(headline["followers_64_over_0"] is NSNull)
    }
}
