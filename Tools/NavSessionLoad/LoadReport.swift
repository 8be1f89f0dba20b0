import Foundation

/// The figures and the verdict, as printed.
struct LoadReport {
    let options: Options
    /// The clients' calls (setup excluded).
    let records: [CallRecord]
    let elapsed: Duration
    let daemonTicks: Int
    let faultLog: FaultLog
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
        let kills = faultLog.count(.kill), takeovers = faultLog.count(.replace), secondStarts = faultLog.count(.secondDaemon)
        let until = [(options.kills, "kills"), (options.replaces, "--replace takeovers"), (options.secondDaemons, "second daemons")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        lines.append("navsession-load \(faults ? "fault" : "load"): \(options.clients) client processes"
            + (faults ? " until \(until.isEmpty ? "0 kills" : until)" : " x \(options.commands) commands") + ", \(windows) windows "
            + "(1 own each + 2 shared), seed \(options.seed), \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
        lines.append("calls: \(records.count) (\(mix))")
        lines.append("answered: \(acknowledged) acknowledged, \(rejected) documented errors"
            + (errors.isEmpty ? "" : " (" + errors.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
            + "; \(failed) failed" + (faults ? "; \(unanswered) without reply at a fault, \(undelivered) undelivered while down" : "; \(unanswered + undelivered) unanswered"))
        lines.append(String(format: "throughput: %.0f calls/s (%.2f s wall)", Double(records.count) / max(seconds, 1e-9), seconds))
        lines.append(String(format: "daemon CPU: %.1f µs/call (utime+stime %.2f s%@)", cpu / Double(max(records.count, 1)), cpu / 1e6,
                            faults ? " over all instances, restores included" : ""))
        lines.append("latency (answered calls): p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs")
        if faults {
            if kills > 0 || until.isEmpty {
                lines.append("kills: \(kills); restart (SIGKILL to name owned) \(Self.spread(faultLog.restartTimes))")
            }
            if takeovers + faultLog.failedTakeovers.count > 0 {
                let statuses = Dictionary(grouping: faultLog.replacedStatuses, by: { $0 }).sorted { $0.key < $1.key }
                    .map { "\($0.key) x\($0.value.count)" }.joined(separator: ", ")
                lines.append("--replace takeovers: \(takeovers)"
                    + (faultLog.failedTakeovers.isEmpty ? "" : " (and \(faultLog.failedTakeovers.count) that exited before owning the name)")
                    + "; takeover (start to name owned, old instance gone) "
                    + "\(Self.spread(faultLog.takeoverTimes)); replaced instances' exit statuses: \(statuses)")
            }
            if secondStarts > 0 {
                let starts = faultLog.secondDaemons
                let same = starts.filter { $0.busName != SecondDaemonStart.otherName }.count
                lines.append("second daemons: \(starts.count) (\(same) for the same name, \(starts.count - same) with --name "
                    + "\(SecondDaemonStart.otherName)); refused: \(starts.filter(\.refused).count), "
                    + "served: \(starts.filter { $0.served != nil }.count), each followed by a kill and restart")
                for (number, start) in starts.enumerated().prefix(4) {
                    lines.append("  second daemon \(number + 1) (\(start.busName)): "
                        + (start.served.map { "served as \($0), " } ?? "") + "exit \(start.status): \(start.message.prefix(200))")
                }
            }
            lines.append("acknowledged changes checked: \(verification.acknowledgedChecked)")
            lines.append("lost changes: \(verification.lost) (signalled changes lost: \(verification.signalledLost), versions reused: \(verification.reused))")
            if !verification.lostByFault.isEmpty || !verification.reusedByFault.isEmpty {
                let kinds = Set(verification.lostByFault.keys).union(verification.reusedByFault.keys).sorted()
                lines.append("lost / reused by the fault before the restore: " + kinds.map {
                    "\($0) \(verification.lostByFault[$0, default: 0]) / \(verification.reusedByFault[$0, default: 0])"
                }.joined(separator: ", "))
            }
            lines += verification.firstLost.map { "  first lost: " + $0 }
            lines += verification.firstReused.map { "  first reused: " + $0 }
            lines.append("present without acknowledgement (journaled, reply lost in a fault): \(verification.presentWithoutAck)"
                + ", \(verification.matchedToUnanswered) of them matched to a call left without a reply")
            lines.append("restored states equal to the replay: \(verification.restoresCompared) (window x fault)")
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

    /// "p50 21 ms, max 30 ms" of `times`.
    private static func spread(_ times: [Duration]) -> String {
        let sorted = times.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
        return String(format: "p50 %.0f ms, max %.0f ms", sorted.isEmpty ? 0 : sorted[sorted.count / 2], sorted.last ?? 0)
    }
}
