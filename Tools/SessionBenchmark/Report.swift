import Foundation

/// The three targets of one run, in the order they are measured within each repetition.
enum Target: String, Codable, CaseIterable {
    /// The C echo service: one message per call (context).
    case echo
    /// The same-contract C floor (Benchmarks/floor/floor-service.c): the reference of every ratio.
    case floor
    /// The daemon.
    case navsessiond
}

/// One kind of run (sequential or pipelined) for every target: each repetition and their medians.
struct Comparison: Codable {
    /// Per target, each figure's own median over the repetitions (so a row of the table is the median of
    /// that row's figures, not the figures of whichever repetition was median by some other one).
    var echo: Measurement?
    var floor: Measurement?
    var navsessiond: Measurement?
    var runs: [String: [Measurement]] = [:]
    /// navsessiond ÷ floor, and navsessiond ÷ echo (context): for each figure, the median over the
    /// repetitions of that repetition's ratio, whose two runs followed each other (``medianRatio(_:_:)``).
    var ratioToFloor: Ratios?
    var ratioToEcho: Ratios?
    /// navsessiond ÷ floor of each repetition's back-to-back runs, the lowest and the highest: how much a
    /// ratio moved from one repetition to the next in this run.
    var repetitionRatiosToFloor: RepetitionRatios?

    struct RepetitionRatios: Codable {
        var serviceCpuPerCall: Spread?
        var callsPerSecond: Spread?
    }

    struct Spread: Codable {
        var lowest: Double
        var highest: Double

        init?(_ values: [Double]) {
            guard let lowest = values.min(), let highest = values.max() else { return nil }
            self.lowest = lowest
            self.highest = highest
        }
    }

    /// navsessiond ÷ reference for each figure: above 1 is more (more CPU, longer latency; for calls/s, faster).
    struct Ratios: Codable {
        var callsPerSecond: Double?
        var serviceCpuPerCall: Double?
        var p50Latency: Double?
        var p99Latency: Double?

        private enum CodingKeys: String, CodingKey { case callsPerSecond, serviceCpuPerCall, p50Latency, p99Latency }

        // Every key is always present: `null` says "not measurable in this run" (e.g. 0 CPU ticks in a tiny run).
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(callsPerSecond, forKey: .callsPerSecond)
            try c.encode(serviceCpuPerCall, forKey: .serviceCpuPerCall)
            try c.encode(p50Latency, forKey: .p50Latency)
            try c.encode(p99Latency, forKey: .p99Latency)
        }
    }

    subscript(target: Target) -> Measurement? {
        switch target {
        case .echo: echo
        case .floor: floor
        case .navsessiond: navsessiond
        }
    }

    mutating func add(_ run: Measurement, for target: Target) {
        runs[target.rawValue, default: []].append(run)
        let median = Measurement.medians(of: runs[target.rawValue, default: []])
        switch target {
        case .echo: echo = median
        case .floor: floor = median
        case .navsessiond: navsessiond = median
        }
        // Runs of one repetition pair up by index: the targets take turns within each repetition.
        let daemon = runs[Target.navsessiond.rawValue] ?? []
        ratioToFloor = Self.ratios(daemon, runs[Target.floor.rawValue] ?? [])
        ratioToEcho = Self.ratios(daemon, runs[Target.echo.rawValue] ?? [])
        let pairs = zip(daemon, runs[Target.floor.rawValue] ?? [])
        repetitionRatiosToFloor = RepetitionRatios(
            serviceCpuPerCall: Spread(pairs.compactMap { ratio($0.serviceCpuUsPerCall, $1.serviceCpuUsPerCall) }),
            callsPerSecond: Spread(pairs.compactMap { ratio($0.run.callsPerSec, $1.run.callsPerSec) }))
    }

    private static func ratios(_ daemon: [Measurement], _ reference: [Measurement]) -> Ratios? {
        guard !daemon.isEmpty, !reference.isEmpty else { return nil }
        func figure(_ value: (Measurement) -> Double) -> Double? {
            medianRatio(daemon.map(value), reference.map(value))
        }
        return Ratios(
            callsPerSecond: figure { $0.run.callsPerSec },
            serviceCpuPerCall: figure { $0.serviceCpuUsPerCall },
            p50Latency: figure { $0.run.latP50Us },
            p99Latency: figure { $0.run.latP99Us })
    }
}

func ratio(_ value: Double?, _ reference: Double?) -> Double? {
    guard let value, let reference, reference > 0 else { return nil }
    return value / reference
}

/// The (lower) median over the repetitions of `values[i] ÷ references[i]`, the two runs of repetition `i`.
///
/// The two runs of one repetition follow each other within seconds, so whatever else the machine was doing
/// then (on a shared VM: other guests' bursts, which come and go within a run) weighs on both; the median of
/// these paired ratios then sets aside the repetitions a burst hit unevenly. A ratio of two separate medians
/// can pair a run from a quiet moment with one from a busy moment.
func medianRatio(_ values: [Double], _ references: [Double]) -> Double? {
    zip(values, references).compactMap { ratio($0, $1) }.lowerMedian { $0 }
}

/// OpenURL → first `Changed` at a subscriber, for the floor and the daemon.
struct URLComparison: Codable {
    /// The run with the median signal p50, per target.
    var floor: URLSignalRun?
    var navsessiond: URLSignalRun?
    /// Every run per target, in the order measured (the targets alternate).
    var runs: [String: [URLSignalRun]] = [:]
    /// The median of the repetitions' navsessiond ÷ floor ratios (``medianRatio(_:_:)``).
    var ratioToFloor: Ratios?

    struct Ratios: Codable {
        var p50: Double?
        var p99: Double?
    }

    mutating func computeRatios() {
        let daemon = runs[Target.navsessiond.rawValue] ?? []
        let reference = runs[Target.floor.rawValue] ?? []
        ratioToFloor = Ratios(
            p50: medianRatio(daemon.map(\.signalP50Us), reference.map(\.signalP50Us)),
            p99: medianRatio(daemon.map(\.signalP99Us), reference.map(\.signalP99Us)))
    }
}

/// Cost per call with the window's stack `depth` elements deep (short sequential append/drop pairs on top).
struct DepthRow: Codable {
    var depth: Int
    var floorCpuPerCall: Double?
    var navsessiondCpuPerCall: Double?
    var floorCallsPerSecond: Double?
    var navsessiondCallsPerSecond: Double?
    var ratioToFloor: Double?
    /// Why a target could not reach the depth (e.g. a limit), when it could not.
    var refused: String?
}

/// The daemon's cost per call with one open window and with `count` open.
struct WindowsRow: Codable {
    var count: Int
    var oneWindowCpuPerCall: Double?
    var manyWindowsCpuPerCall: Double?
    var ratio: Double?
    var refused: String?
}

/// Instructions per call counted by callgrind (deterministic where timings are noisy).
struct Instructions: Codable {
    var calls: Int
    var perCall: [String: Double] = [:]
    var ratioToFloor: Double?
    /// The daemon's instructions per call in each of ``scenarios`` (key: `none`, `followers_64`, `marks_64`,
    /// `depth_10000`).
    var scenarios: [String: Double] = [:]

    /// The situations counted besides the plain call: mode and size for `followers-and-marks.py`.
    static let situations: [(key: String, mode: String, count: Int)] = [
        ("none", "none", 0), ("followers_64", "followers", 64), ("marks_64", "marks", 64), ("depth_10000", "depth", 10_000),
    ]

    func scenarioRatio(_ key: String) -> Double? { ratio(scenarios[key], scenarios["none"]) }
}

/// The figures the performance targets are stated in, under stable keys (`session-benchmark --json`'s
/// `headline`): each a ratio, `null` when this run did not measure it.
struct Headline: Codable {
    struct CPU: Codable {
        var sequential: Double?
        var pipelined: Double?
    }

    var cpuPerCallRatio: CPU
    var instructionsPerCallRatio: Double?
    var depth10000OverDepth0: Double?
    var followers64Over0: Double?
    var marks64Over0: Double?
    var navsessionctlOverDbusSend: Double?

    private enum CodingKeys: String, CodingKey {
        case cpuPerCallRatio = "cpu_per_call_ratio"
        case instructionsPerCallRatio = "instructions_per_call_ratio"
        case depth10000OverDepth0 = "depth_10000_over_depth_0"
        case followers64Over0 = "followers_64_over_0"
        case marks64Over0 = "marks_64_over_0"
        case navsessionctlOverDbusSend = "navsessionctl_over_dbus_send"
    }

    // Every key is always present: `null` says "not measured in this run".
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cpuPerCallRatio, forKey: .cpuPerCallRatio)
        try c.encode(instructionsPerCallRatio, forKey: .instructionsPerCallRatio)
        try c.encode(depth10000OverDepth0, forKey: .depth10000OverDepth0)
        try c.encode(followers64Over0, forKey: .followers64Over0)
        try c.encode(marks64Over0, forKey: .marks64Over0)
        try c.encode(navsessionctlOverDbusSend, forKey: .navsessionctlOverDbusSend)
    }
}

/// One call made by a whole command-line process, median wall time in ms.
struct ToolTimes: Codable {
    var runs: Int
    var call: String
    var milliseconds: [String: Double] = [:]
    var ratioToGdbus: Double?
    var ratioToDbusSend: Double?
}

/// One of the issue's targets and whether this run met it.
struct Goal: Codable {
    var name: String
    var value: Double?
    var limit: Double
    /// `true` when the value must stay at or below the limit, `false` when at or above.
    var atMost: Bool
    var met: Bool?
}

/// Everything one run measured, printed as a table or as JSON.
struct Report: Codable {
    struct Setup: Codable {
        var dbusDaemon: String
        var cpus: Int
        var cpuClock: String
        var sequentialCalls: Int
        var pipelinedCalls: Int
        var inflight: Int
        var warmupCalls: Int
        var repetitions: Int
        var urlRounds: Int
        var url: String
        var depthCalls: Int
    }

    var setup: Setup
    /// Steal time and load average over the run (nil until the run ends).
    var host: HostActivity?
    var sequential = Comparison()
    var pipelined = Comparison()
    var urlSignal = URLComparison()
    var depth: [DepthRow] = []
    var windows: WindowsRow?
    var instructions: Instructions?
    var tools: ToolTimes?
    /// The targets' figures under stable keys (set with the goals).
    var headline: Headline?
    var goals: [Goal] = []

    private func headlineFigures() -> Headline {
        Headline(
            cpuPerCallRatio: Headline.CPU(
                sequential: sequential.ratioToFloor?.serviceCpuPerCall, pipelined: pipelined.ratioToFloor?.serviceCpuPerCall),
            instructionsPerCallRatio: instructions?.ratioToFloor,
            depth10000OverDepth0: instructions?.scenarioRatio("depth_10000"),
            followers64Over0: instructions?.scenarioRatio("followers_64"),
            marks64Over0: instructions?.scenarioRatio("marks_64"),
            navsessionctlOverDbusSend: tools?.ratioToDbusSend)
    }
    /// Why the daemon half is missing or incomplete; nil when it was fully measured.
    var daemonUnavailable: String?

    /// The issue's targets, as ratios to the floor measured in this run.
    mutating func evaluateGoals() {
        func goal(_ name: String, _ value: Double?, _ limit: Double, atMost: Bool) -> Goal {
            Goal(name: name, value: value, limit: limit, atMost: atMost,
                 met: value.map { atMost ? $0 <= limit : $0 >= limit })
        }
        headline = headlineFigures()
        goals = [
            goal("service CPU per call, sequential (× floor)", sequential.ratioToFloor?.serviceCpuPerCall, 1.0, atMost: true),
            goal("service CPU per call, pipelined (× floor)", pipelined.ratioToFloor?.serviceCpuPerCall, 1.0, atMost: true),
            goal("calls/s, sequential (× floor)", sequential.ratioToFloor?.callsPerSecond, 0.9, atMost: false),
            goal("calls/s, pipelined (× floor)", pipelined.ratioToFloor?.callsPerSecond, 0.8, atMost: false),
            goal("OpenURL -> Changed p50 (× floor)", urlSignal.ratioToFloor?.p50, 1.25, atMost: true),
        ]
        if let instructions {
            goals.append(goal("instructions per call (× floor)", instructions.ratioToFloor, 0.8, atMost: true))
            goals.append(goal("instructions per call, depth 10 000 ÷ depth 0", instructions.scenarioRatio("depth_10000"), 1.1, atMost: true))
            goals.append(goal("instructions per call, 64 followers ÷ none", instructions.scenarioRatio("followers_64"), 3.0, atMost: true))
            goals.append(goal("instructions per call, 64 marks ÷ none", instructions.scenarioRatio("marks_64"), 1.1, atMost: true))
        }
        if let row = depth.first(where: { $0.depth == 1000 }) {
            goals.append(goal("service CPU per call at depth 1000 (× floor)", row.ratioToFloor, 1.25, atMost: true))
        }
        if let windows {
            goals.append(goal("CPU per call, \(windows.count) windows ÷ 1 window", windows.ratio, 1.25, atMost: true))
        }
        if let tools {
            goals.append(goal("navsessionctl one call (× dbus-send)", tools.ratioToDbusSend, 1.0, atMost: true))
        }
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
            + "CPU from \(setup.cpuClock)")
        lines.append("echo = C libdbus Echo(\"hello\"); floor = C libdbus service with navsessiond's contract "
            + "(Benchmarks/floor); navsessiond and floor: StackAppend/StackDropLast pairs, each call counted")
        lines.append("sequential: \(setup.sequentialCalls) calls; pipelined: \(setup.pipelinedCalls) calls, "
            + "\(setup.inflight) in flight; warm-up: \(setup.warmupCalls) calls per target; "
            + "\(setup.repetitions) repetitions, targets interleaved; each figure its median, each ratio the median of "
            + "the repetitions' ratios")
        if let host {
            lines.append("host during the run: \(format(host.stealPercent, 1)) % steal time, load average "
                + "\(format(host.loadAverageAtStart, 2)) at the start and \(format(host.loadAverageAtEnd, 2)) at the end "
                + "(other work inflates the daemon's ratios more than the floor's)")
        }
        lines.append("")
        lines.append(row("", "echo", "floor", "navsessiond", "÷ floor", "÷ echo"))
        func add(_ label: String, _ comparison: Comparison, _ value: (Measurement) -> Double,
                 _ ratios: (Comparison.Ratios) -> Double?, digits: Int = 1) {
            let cells = Target.allCases.map { format(comparison[$0].map(value), digits) }
            lines.append(row(label, cells[0], cells[1], cells[2],
                             comparison.ratioToFloor.flatMap(ratios).map { format($0, 2) + "x" } ?? "",
                             comparison.ratioToEcho.flatMap(ratios).map { format($0, 2) + "x" } ?? ""))
        }
        for (name, comparison) in [("sequential", sequential), ("pipelined", pipelined)] {
            add("\(name) calls/s", comparison, { $0.run.callsPerSec }, { $0.callsPerSecond }, digits: 0)
            add("\(name) p50 latency µs", comparison, { $0.run.latP50Us }, { $0.p50Latency })
            add("\(name) p99 latency µs", comparison, { $0.run.latP99Us }, { $0.p99Latency })
            add("service CPU µs/call (\(name))", comparison, { $0.serviceCpuUsPerCall }, { $0.serviceCpuPerCall })
            add("bus CPU µs/call (\(name))", comparison, { $0.busCpuUsPerCall }, { _ in nil })
        }
        let spreads = [("sequential", sequential), ("pipelined", pipelined)].compactMap { name, comparison in
            comparison.repetitionRatiosToFloor.map { ratios in
                "\(name) CPU \(spread(ratios.serviceCpuPerCall)), calls/s \(spread(ratios.callsPerSecond))"
            }
        }
        if !spreads.isEmpty {
            lines.append("navsessiond ÷ floor in each repetition (lowest–highest): " + spreads.joined(separator: "; "))
        }
        lines.append("")
        if urlSignal.floor != nil || urlSignal.navsessiond != nil {
            lines.append("OpenURL(\"\(setup.url)\") -> first Window1.Changed at a subscriber, \(setup.urlRounds) rounds per run, "
                + "median of \(setup.repetitions) interleaved runs (ratios: median of the runs' ratios):")
            for (name, run) in [("floor", urlSignal.floor), ("navsessiond", urlSignal.navsessiond)] {
                guard let run else { continue }
                lines.append("  \(pad(name, 12)) p50 \(format(run.signalP50Us, 1)) µs, p99 \(format(run.signalP99Us, 1)) µs "
                    + "(reply p50 \(format(run.replyP50Us, 1)) µs; signal before reply in \(run.signalBeforeReply) rounds)")
            }
            if let ratios = urlSignal.ratioToFloor {
                lines.append("  navsessiond ÷ floor: p50 \(format(ratios.p50, 2))x, p99 \(format(ratios.p99, 2))x")
            }
            lines.append("")
        }
        if !depth.isEmpty {
            lines.append("cost at stack depth (\(setup.depthCalls) sequential calls on top of the stack; medians of \(setup.repetitions) "
                + "interleaved runs, ratio the median of their ratios):")
            lines.append("  " + pad("depth", 8) + padLeft("floor µs/call", 15) + padLeft("navsessiond µs/call", 21)
                + padLeft("÷ floor", 9))
            for row in depth {
                lines.append("  " + pad("\(row.depth)", 8) + padLeft(format(row.floorCpuPerCall, 1), 15)
                    + padLeft(format(row.navsessiondCpuPerCall, 1), 21)
                    + padLeft(row.ratioToFloor.map { format($0, 2) + "x" } ?? "-", 9)
                    + (row.refused.map { "  refused: \($0)" } ?? ""))
            }
            lines.append("")
        }
        if let windows {
            lines.append("navsessiond with \(windows.count) open windows: \(format(windows.manyWindowsCpuPerCall, 1)) µs/call "
                + "against \(format(windows.oneWindowCpuPerCall, 1)) with one (\(format(windows.ratio, 2))x; two daemons, "
                + "medians of \(setup.repetitions) interleaved runs, ratio the median of their ratios)"
                + (windows.refused.map { "; refused: \($0)" } ?? ""))
            lines.append("")
        }
        if let instructions {
            let parts = Target.allCases.compactMap { target in
                instructions.perCall[target.rawValue].map { "\(target.rawValue) \(Int($0))" }
            }
            lines.append("instructions per call (callgrind, \(instructions.calls) calls): " + parts.joined(separator: ", ")
                + "; navsessiond ÷ floor \(format(instructions.ratioToFloor, 2))x")
            let situations = Instructions.situations.compactMap { situation in
                instructions.scenarios[situation.key].map { "\(situation.mode) \(situation.count): \(Int($0))" }
            }
            if !situations.isEmpty {
                lines.append("navsessiond instructions per call by situation (callgrind): " + situations.joined(separator: ", "))
            }
            lines.append("")
        }
        if let tools {
            let parts = tools.milliseconds.sorted { $0.key < $1.key }.map { "\($0.key) \(format($0.value, 2)) ms" }
            lines.append("one call as a whole process (\(tools.call), median of \(tools.runs)): "
                + parts.joined(separator: ", ") + "; navsessionctl ÷ gdbus \(format(tools.ratioToGdbus, 2))x, "
                + "÷ dbus-send \(format(tools.ratioToDbusSend, 2))x")
            lines.append("")
        }
        if !goals.isEmpty {
            lines.append("targets (Docs/performance.md, \"Current figures\"):")
            for goal in goals {
                let verdict = goal.met.map { $0 ? "met" : "NOT met" } ?? "not measured"
                lines.append("  " + pad(goal.name, 50) + padLeft(format(goal.value, 2), 7)
                    + "  \(goal.atMost ? "<=" : ">=") \(format(goal.limit, 2))  \(verdict)")
            }
        }
        if let reason = daemonUnavailable {
            lines.append("daemon: not fully measured (\(reason))")
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ label: String, _ a: String, _ b: String, _ c: String, _ d: String, _ e: String) -> String {
        pad(label, 32) + padLeft(a, 10) + padLeft(b, 10) + padLeft(c, 13) + padLeft(d, 9) + padLeft(e, 9)
    }

    private func spread(_ spread: Comparison.Spread?) -> String {
        guard let spread else { return "-" }
        return format(spread.lowest, 2) + "–" + format(spread.highest, 2)
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
