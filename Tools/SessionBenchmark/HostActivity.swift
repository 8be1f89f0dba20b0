import Foundation

/// What else the machine did during a run, so a reader can tell a quiet run from a disturbed one.
///
/// Ratios are measured in one run with the targets alternating, so work elsewhere hits every target; but it
/// does not hit them alike: a service that touches more code suffers more when other work has emptied the
/// caches (Docs/performance-history.md, "What a line of code costs a sequential call"). Steal time is CPU time the hypervisor gave to
/// other guests while this one had work; the load average counts runnable tasks, the benchmark's own included.
struct HostActivity: Codable {
    /// Steal time over the run, as a percentage of all CPU time.
    var stealPercent: Double?
    /// The one-minute load average when the run started and when it ended.
    var loadAverageAtStart: Double?
    var loadAverageAtEnd: Double?

    /// The counters at one moment (`/proc/stat`'s `cpu` line, in clock ticks).
    struct Sample {
        var steal: UInt64
        var total: UInt64
        var loadAverage: Double?

        /// Now, or nil where `/proc` is not there.
        static func now() -> Sample? {
            guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                  let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
            else { return nil }
            // user nice system idle iowait irq softirq steal [guest guest_nice, already counted in user/nice]
            let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
            guard fields.count == 8 else { return nil }
            let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
                .split(separator: " ").first.flatMap { Double($0) }
            return Sample(steal: fields[7], total: fields.reduce(0, +), loadAverage: load)
        }
    }

    init(from start: Sample?, to end: Sample?) {
        if let start, let end, end.total > start.total {
            stealPercent = Double(end.steal &- start.steal) / Double(end.total - start.total) * 100
        }
        loadAverageAtStart = start?.loadAverage
        loadAverageAtEnd = end?.loadAverage
    }
}
