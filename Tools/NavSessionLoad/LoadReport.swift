import Foundation

/// The figures and the verdict, as printed.
struct LoadReport {
    let options: Options
    /// The clients' calls (setup excluded).
    let records: [CallRecord]
    let elapsed: Duration
    let daemonTicks: Int
    let kills: Int
    let restartTimes: [Duration]
    let windows: Int
    let verification: Verification

    func text() -> String {
        var lines: [String] = []
        let faults = options.mode == .fault
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var acknowledged = 0, rejected = 0, unanswered = 0, undelivered = 0, failed = 0
        var errors: [String: Int] = [:]
        for record in records {
            switch record.outcome {
            case .acknowledged: acknowledged += 1
            case .rejected(let name):
                rejected += 1
                errors[name.replacingOccurrences(of: "org.navsession.Error.", with: ""), default: 0] += 1
            case .unknown: unanswered += 1
            case .undelivered: undelivered += 1
            case .failed: failed += 1
            }
        }
        let latencies = records.filter {
            if case .acknowledged = $0.outcome { return true }
            if case .rejected = $0.outcome { return true }
            return false
        }.map(\.micros).sorted()
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            return "\(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))])"
        }
        let mix = Dictionary(grouping: records, by: { $0.command.name }).mapValues(\.count)
            .sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let cpu = CPUTime.microseconds(daemonTicks)
        lines.append("navsession-load \(faults ? "fault" : "load"): \(options.clients) client processes"
            + (faults ? " until \(kills) kills" : " x \(options.commands) commands") + ", \(windows) windows "
            + "(1 own each + 2 shared), seed \(options.seed), \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        lines.append("calls: \(records.count) (\(mix))")
        lines.append("answered: \(acknowledged) acknowledged, \(rejected) documented errors"
            + (errors.isEmpty ? "" : " (" + errors.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
            + "; \(failed) failed" + (faults ? "; \(unanswered) without reply at a kill, \(undelivered) undelivered while down" : "; \(unanswered + undelivered) unanswered"))
        lines.append(String(format: "throughput: %.0f calls/s (%.2f s wall)", Double(records.count) / max(seconds, 1e-9), seconds))
        lines.append(String(format: "daemon CPU: %.1f µs/call (utime+stime %.2f s%@)", cpu / Double(max(records.count, 1)), cpu / 1e6,
                            faults ? " over all instances, restores included" : ""))
        lines.append("latency (answered calls): p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs")
        if faults {
            let restarts = restartTimes.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
            lines.append("kills: \(kills); restart (SIGKILL to name owned) p50 "
                + String(format: "%.0f ms, max %.0f ms", restarts.isEmpty ? 0 : restarts[restarts.count / 2], restarts.last ?? 0))
            lines.append("acknowledged changes checked: \(verification.acknowledgedChecked)")
            lines.append("lost changes: \(verification.lost) (signalled changes lost: \(verification.signalledLost), versions reused: \(verification.reused))")
            lines.append("present without acknowledgement (journaled, reply lost in a kill): \(verification.presentWithoutAck)"
                + ", \(verification.matchedToUnanswered) of them matched to a call left without a reply")
            lines.append("restored states equal to the replay: \(verification.restoresCompared) (window x restart)")
        } else {
            lines.append("acknowledged changes checked: \(verification.acknowledgedChecked)")
        }
        lines.append("Changed signals checked (gap-free, strictly increasing per window): \(verification.signalsChecked)")
        lines.append("final states equal to the replay: \(verification.windowsReplayed) of \(windows) windows")
        if verification.problems.isEmpty {
            lines.append("result: PASS")
        } else {
            lines.append("result: FAIL, \(verification.problems.count) problem(s):")
            lines += verification.problems.prefix(20).map { "  " + $0 }
            if verification.problems.count > 20 { lines.append("  … and \(verification.problems.count - 20) more") }
        }
        return lines.joined(separator: "\n")
    }
}
