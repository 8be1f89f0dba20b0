import Foundation

/// Counts of one run, printed as the summary.
struct FuzzStatistics {
    var calls = 0
    var successes = 0
    var errorsByName: [String: Int] = [:]
    var abandoned = 0
    var missingReplies = 0
    var daemonDisconnects = 0
    var fuzzerDisconnects = 0
    var rejectedLocally = 0
    var descriptorsSent = 0
    var failures = 0
    var failed: Int { errorsByName[ErrorCatalog.failed] ?? 0 }
    /// Growth of the daemon's open descriptors right after calls, by member and signature.
    var descriptorGrowth: [String: Int] = [:]
    /// Time spent making calls (the rest is sending, waiting and checking).
    var generationSeconds = 0.0
    /// The most models one window had in a `GetState` reply (how deep the state got).
    var deepestWindow = 0
    var maximumResidentBytes = 0
    /// `--misbehaving-provider`: the provider's questions and answers, and the windows the end check changed.
    var provider: MisbehavingProvider.Counts?
    var endCheckWindows = 0
    var maximumDescriptors = 0
    /// Failures grouped by what happened: how often, and the first call that showed it.
    var failureClasses: [String: (count: Int, first: Int, call: String)] = [:]
    /// The slowest calls: seconds, call number, summary.
    var slowest: [(seconds: Double, number: Int, call: String)] = []

    mutating func classify(_ failure: FuzzFailure, at number: Int, call: FuzzCall) {
        let key = failure.signature
        if let known = failureClasses[key] {
            failureClasses[key] = (known.count + 1, known.first, known.call)
        } else {
            failureClasses[key] = (1, number, call.shortSummary)
        }
    }

    mutating func timed(_ seconds: Double, number: Int, call: FuzzCall) {
        guard slowest.count < 5 || seconds > (slowest.last?.seconds ?? 0) else { return }
        slowest.append((seconds, number, call.shortSummary))
        slowest.sort { $0.seconds > $1.seconds }
        if slowest.count > 5 { slowest.removeLast() }
    }

    mutating func record(_ result: CallResult, descriptors: Int) {
        calls += 1
        descriptorsSent += descriptors
        switch result {
        case .reply: successes += 1
        case .error(let name, _): errorsByName[name, default: 0] += 1
        case .timedOut: missingReplies += 1
        case .disconnected: fuzzerDisconnects += 1
        case .rejectedLocally: rejectedLocally += 1
        case .abandoned: abandoned += 1
        }
    }

    mutating func sample(_ sample: ProcessProbe.Sample) {
        maximumResidentBytes = max(maximumResidentBytes, sample.residentBytes)
        maximumDescriptors = max(maximumDescriptors, sample.descriptors)
    }

    func summary(seconds: Double) -> String {
        var lines = [
            "summary: calls=\(calls) replies=\(successes) errors=\(errorsByName.values.reduce(0, +))"
                + " abandoned(vanishing clients)=\(abandoned) in \(String(format: "%.1f", seconds)) s"
                + " (\(String(format: "%.0f", seconds > 0 ? Double(calls) / seconds : 0)) calls/s;"
                + " \(String(format: "%.1f", generationSeconds)) s of it making calls)",
            "  replies by error name:",
        ]
        for (name, count) in errorsByName.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("    \(count)\t\(name)")
        }
        lines.append(
            "  disconnects: daemon=\(daemonDisconnects) fuzzer=\(fuzzerDisconnects); missing replies=\(missingReplies);"
                + " Failed=\(failed); failures=\(failures); rejected locally=\(rejectedLocally); descriptors sent=\(descriptorsSent)")
        if !failureClasses.isEmpty {
            lines.append("  failures by kind (count, first call, that call):")
            for (key, entry) in failureClasses.sorted(by: { $0.value.first < $1.value.first }) {
                lines.append("    \(entry.count)\t\(key)\n      first at call \(entry.first): \(entry.call)")
            }
        }
        if !descriptorGrowth.isEmpty {
            lines.append("  daemon descriptors opened (and kept) right after these calls:")
            for (key, count) in descriptorGrowth.sorted(by: { $0.value > $1.value }).prefix(12) {
                lines.append("    +\(count)\t\(key)")
            }
        }
        if let provider {
            let answers = MisbehavingProvider.Answer.allCases.map { "\($0.rawValue)=\(provider.answers[$0] ?? 0)" }
            lines.append(
                "  guard provider: questions=\(provider.questions) (\(answers.joined(separator: " ")));"
                    + " connections=\(provider.reconnects); end check: \(endCheckWindows) windows changed")
        }
        lines.append("  slowest calls:")
        for entry in slowest {
            lines.append("    \(String(format: "%.3f", entry.seconds)) s, call \(entry.number): \(entry.call)")
        }
        lines.append(
            "  daemon: max RSS=\(String(format: "%.1f", Double(maximumResidentBytes) / 1_048_576)) MiB,"
                + " max fds=\(maximumDescriptors); the deepest window had \(deepestWindow) models")
        return lines.joined(separator: "\n")
    }
}
