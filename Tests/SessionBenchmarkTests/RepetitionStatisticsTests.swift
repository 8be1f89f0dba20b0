import Testing

@testable import session_benchmark

/// How repetitions become the benchmark's figures and ratios.
struct RepetitionStatisticsTests {
    func measurement(callsPerSec: Double, cpu: Double, p50: Double = 100) -> Measurement {
        Measurement(
            run: ClientRun(
                mode: "sequential", call: "stack-pair", calls: 1000, inflight: 1, seconds: 1000 / callsPerSec,
                callsPerSec: callsPerSec, clientCpuUsPerCall: 10, latP50Us: p50, latP90Us: p50, latP99Us: p50,
                latMaxUs: p50),
            serviceCpuUsPerCall: cpu, busCpuUsPerCall: 50)
    }

    @Test func medianRatioIsTheMedianOfEachRepetitionsOwnRatio() {
        #expect(medianRatio([100, 300, 200], [100, 100, 100]) == 2)
    }

    @Test func medianRatioSetsAsideARepetitionABurstHitOnOneSide() {
        // The second repetition's floor run was disturbed; the median of the paired ratios ignores it.
        #expect(medianRatio([110, 110, 110], [100, 300, 100]) == 1.1)
    }

    @Test func medianRatioSkipsPairsWithoutAReference() {
        #expect(medianRatio([1, 2], [0, 1]) == 2)
        #expect(medianRatio([], []) == nil)
    }

    @Test func everyFigureIsItsOwnMedian() throws {
        let medians = try #require(Measurement.medians(of: [
            measurement(callsPerSec: 1000, cpu: 90), measurement(callsPerSec: 3000, cpu: 170),
            measurement(callsPerSec: 2000, cpu: 100),
        ]))
        #expect(medians.run.callsPerSec == 2000)
        #expect(medians.serviceCpuUsPerCall == 100)
        #expect(Measurement.medians(of: []) == nil)
    }

    @Test func comparisonRatiosPairTheRunsOfEachRepetition() throws {
        var comparison = Comparison()
        for (floor, daemon) in [(90.0, 100.0), (177.0, 120.0), (90.0, 100.0)] {
            comparison.add(measurement(callsPerSec: 1000, cpu: floor), for: .floor)
            comparison.add(measurement(callsPerSec: 1000, cpu: daemon), for: .navsessiond)
        }
        let cpu = try #require(comparison.ratioToFloor?.serviceCpuPerCall)
        #expect(abs(cpu - 100.0 / 90.0) < 1e-9)
        #expect(comparison.floor?.serviceCpuUsPerCall == 90)
        #expect(comparison.navsessiond?.serviceCpuUsPerCall == 100)
    }

    @Test func everyOtherRepetitionReversesTheOrder() {
        #expect([1, 2, 3].alternating(1) == [1, 2, 3])
        #expect([1, 2, 3].alternating(2) == [3, 2, 1])
        #expect([1, 2, 3].alternating(3) == [1, 2, 3])
    }
}
