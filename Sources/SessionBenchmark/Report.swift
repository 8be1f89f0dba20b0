import Foundation

/// Sequential and pipelined figures for one target: every repetition, and the median one.
struct TargetFigures: Codable {
    /// The repetition with the median calls/s, reported whole so its figures stay consistent.
    var sequential: Measurement?
    var pipelined: Measurement?
    var sequentialRuns: [Measurement] = []
    var pipelinedRuns: [Measurement] = []

    mutating func add(sequential run: Measurement) {
        sequentialRuns.append(run)
        sequential = Self.median(sequentialRuns)
    }

    mutating func add(pipelined run: Measurement) {
        pipelinedRuns.append(run)
        pipelined = Self.median(pipelinedRuns)
    }

    /// The lower median by calls/s (with two runs, the slower one: the conservative figure).
    private static func median(_ runs: [Measurement]) -> Measurement? {
        let sorted = runs.sorted { $0.run.callsPerSec < $1.run.callsPerSec }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }
}

/// Everything one run measured, printed as a table or as JSON.
struct Report: Codable {
    struct Setup: Codable {
        var dbusDaemon: String
        var cpus: Int
        var clockTicksPerSecond: Double
        var sequentialCalls: Int
        var pipelinedCalls: Int
        var inflight: Int
        var warmupCalls: Int
        var repetitions: Int
        var urlRounds: Int
        var url: String
    }

    /// daemon ÷ echo for each figure: above 1 means the daemon is bigger (slower latency, more CPU;
    /// for calls/s, above 1 would mean faster).
    struct Ratios: Codable {
        var sequentialCallsPerSec: Double?
        var sequentialP50: Double?
        var sequentialServiceCpu: Double?
        var pipelinedCallsPerSec: Double?
        var pipelinedServiceCpu: Double?
    }

    var setup: Setup
    var echo = TargetFigures()
    var daemon = TargetFigures()
    var urlSignal: URLSignalRun?
    /// Why the daemon half is missing or incomplete; nil when it was fully measured.
    var daemonUnavailable: String?
    var ratios = Ratios()

    mutating func computeRatios() {
        func ratio(_ daemon: Double?, _ echo: Double?) -> Double? {
            guard let daemon, let echo, echo > 0 else { return nil }
            return daemon / echo
        }
        ratios = Ratios(
            sequentialCallsPerSec: ratio(daemon.sequential?.run.callsPerSec, echo.sequential?.run.callsPerSec),
            sequentialP50: ratio(daemon.sequential?.run.latP50Us, echo.sequential?.run.latP50Us),
            sequentialServiceCpu: ratio(daemon.sequential?.serviceCpuUsPerCall, echo.sequential?.serviceCpuUsPerCall),
            pipelinedCallsPerSec: ratio(daemon.pipelined?.run.callsPerSec, echo.pipelined?.run.callsPerSec),
            pipelinedServiceCpu: ratio(daemon.pipelined?.serviceCpuUsPerCall, echo.pipelined?.serviceCpuUsPerCall))
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    func table() -> String {
        var lines: [String] = []
        lines.append("NavSession bus benchmark: \(setup.dbusDaemon), \(setup.cpus) CPUs, "
            + "CPU from /proc/<pid>/stat at \(Int(setup.clockTicksPerSecond)) ticks/s")
        lines.append("echo = C libdbus Echo(\"hello\"); navsessiond = StackAppend/StackDropLast pairs "
            + "(each call counted); ratio = navsessiond / echo")
        lines.append("sequential: \(setup.sequentialCalls) calls; pipelined: \(setup.pipelinedCalls) calls, "
            + "\(setup.inflight) in flight; warm-up: \(setup.warmupCalls) calls per target; "
            + "median of \(setup.repetitions) repetitions")
        lines.append("")
        lines.append(row("", "echo", "navsessiond", "ratio"))
        func add(_ label: String, _ value: (Measurement) -> Double, _ ratio: Double?,
                 _ pick: (TargetFigures) -> Measurement?, digits: Int = 1) {
            lines.append(row(label, format(pick(echo).map(value), digits), format(pick(daemon).map(value), digits),
                             ratio.map { format($0, 2) + "x" } ?? ""))
        }
        let seq: (TargetFigures) -> Measurement? = { $0.sequential }
        let pipe: (TargetFigures) -> Measurement? = { $0.pipelined }
        add("sequential calls/s", { $0.run.callsPerSec }, ratios.sequentialCallsPerSec, seq, digits: 0)
        add("sequential p50 latency µs", { $0.run.latP50Us }, ratios.sequentialP50, seq)
        add("sequential p99 latency µs", { $0.run.latP99Us }, nil, seq)
        add("service CPU µs/call (sequential)", { $0.serviceCpuUsPerCall }, ratios.sequentialServiceCpu, seq)
        add("bus CPU µs/call (sequential)", { $0.busCpuUsPerCall }, nil, seq)
        add("pipelined calls/s", { $0.run.callsPerSec }, ratios.pipelinedCallsPerSec, pipe, digits: 0)
        add("pipelined p50 latency µs", { $0.run.latP50Us }, nil, pipe)
        add("pipelined p99 latency µs", { $0.run.latP99Us }, nil, pipe)
        add("service CPU µs/call (pipelined)", { $0.serviceCpuUsPerCall }, ratios.pipelinedServiceCpu, pipe)
        add("bus CPU µs/call (pipelined)", { $0.busCpuUsPerCall }, nil, pipe)
        lines.append("")
        if let url = urlSignal {
            lines.append("OpenURL(\"\(setup.url)\") -> first Window1.Changed at a subscriber, \(url.rounds) rounds: "
                + "p50 \(format(url.signalP50Us, 1)) µs, p99 \(format(url.signalP99Us, 1)) µs "
                + "(OpenURL reply p50 \(format(url.replyP50Us, 1)) µs, p99 \(format(url.replyP99Us, 1)) µs; "
                + "signal before reply in \(url.signalBeforeReply) rounds)")
        }
        if let reason = daemonUnavailable {
            let measuredSome = daemon.sequential != nil || daemon.pipelined != nil
            lines.append("daemon: \(measuredSome ? "incomplete" : "not available") (\(reason))")
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ label: String, _ echo: String, _ daemon: String, _ ratio: String) -> String {
        pad(label, 34) + padLeft(echo, 12) + padLeft(daemon, 14) + padLeft(ratio, 9)
    }

    private func format(_ value: Double?, _ digits: Int) -> String {
        guard let value else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
