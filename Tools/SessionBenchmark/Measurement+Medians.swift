extension Measurement {
    /// Each figure's own (lower) median over `runs`; nil when there are none. The figures of the result need
    /// not come from one run: calls/s and CPU per call are each the median of their own values.
    static func medians(of runs: [Measurement]) -> Measurement? {
        guard let first = runs.first else { return nil }
        func median(_ value: (Measurement) -> Double) -> Double {
            runs.map(value).lowerMedian { $0 } ?? value(first)
        }
        return Measurement(
            run: ClientRun(
                mode: first.run.mode, call: first.run.call, calls: first.run.calls, inflight: first.run.inflight,
                seconds: median { $0.run.seconds }, callsPerSec: median { $0.run.callsPerSec },
                clientCpuUsPerCall: median { $0.run.clientCpuUsPerCall }, latP50Us: median { $0.run.latP50Us },
                latP90Us: median { $0.run.latP90Us }, latP99Us: median { $0.run.latP99Us },
                latMaxUs: median { $0.run.latMaxUs }),
            serviceCpuUsPerCall: median { $0.serviceCpuUsPerCall },
            busCpuUsPerCall: median { $0.busCpuUsPerCall })
    }
}
