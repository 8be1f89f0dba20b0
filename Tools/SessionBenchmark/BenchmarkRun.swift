import Foundation

/// One benchmark run: build the C programs, start bus + echo + daemon, measure, report.
final class BenchmarkRun {
    let options: Options
    let workspace: Workspace
    let session = "/org/navsession/Session1"

    init(options: Options, workspace: Workspace) {
        self.options = options
        self.workspace = workspace
    }

    /// Returns the process exit status.
    func run() -> Int32 {
        do {
            let report = try measure()
            print(options.json ? report.json() : report.table())
            if report.daemonUnavailable != nil && options.requireDaemon {
                progress("--require-daemon: failing because the daemon was not fully measured")
                return 1
            }
            return 0
        } catch {
            progress("failed: \(error)")
            return 1
        }
    }

    /// One service under measurement: how to reach it and the call its measurements make.
    struct Service {
        let target: Target
        let pid: pid_t
        let name: String
        let window: String
        var arguments: [String] {
            target == .echo ? ["--dest", name, "--call", "echo"] : ["--dest", name, "--call", "stack-pair", "--path", window]
        }
    }

    private func measure() throws -> Report {
        let sources = try locateSources()
        let echoBinary = try compile(sources + "/echo/echo-service.c", into: "echo-service")
        let floorBinary = try compile(sources + "/floor/floor-service.c", into: "floor-service")
        let clientBinary = try compile(sources + "/echo/bench-client.c", into: "bench-client")

        let hostAtStart = HostActivity.Sample.now()
        let bus = try BenchBus.start(in: workspace)
        progress("private bus at \(bus.address)")
        let client = LoadClient(executable: clientBinary, busAddress: bus.address, workspace: workspace)
        let busPID = bus.process.processIdentifier

        let echoProcess = try Tool.start(echoBinary, [options.echoName], busAddress: bus.address, logName: "echo.log",
                                         in: workspace)
        try bus.waitForName(options.echoName, owner: echoProcess, logName: "echo.log", timeout: 10, in: workspace)
        let floorProcess = try Tool.start(floorBinary, [options.floorName, workspace.path("floor-state")],
                                          busAddress: bus.address, logName: "floor.log", in: workspace)
        try bus.waitForName(options.floorName, owner: floorProcess, logName: "floor.log", timeout: 10, in: workspace)

        var report = Report(setup: setup())
        var services = [
            Service(target: .echo, pid: echoProcess.processIdentifier, name: options.echoName, window: ""),
            Service(target: .floor, pid: floorProcess.processIdentifier, name: options.floorName, window: Self.floorWindow),
        ]
        var daemon: Service?
        if options.skipDaemon {
            report.daemonUnavailable = "skipped with --no-daemon"
        } else {
            do {
                let started = try startDaemon(bus: bus, client: client)
                let service = Service(target: .navsessiond, pid: started.pid, name: options.daemonName, window: started.window)
                daemon = service
                services.append(service)
            } catch {
                report.daemonUnavailable = "\(error)"
                progress("daemon: not available (\(error))")
            }
        }

        // A failing daemon step is recorded and ends the daemon's half; the C services must not fail.
        func step(_ service: Service, _ what: String, _ body: () throws -> Void) throws {
            guard service.target == .navsessiond else { return try body() }
            guard daemon != nil else { return }
            do {
                try body()
            } catch {
                report.daemonUnavailable = "\(what): \(error)"
                progress("daemon: \(what) failed: \(error)")
                daemon = nil
                services.removeAll { $0.target == .navsessiond }
            }
        }

        if options.warmupCalls > 0 {
            progress("warm-up: \(options.warmupCalls) calls per target")
            for service in services {
                try step(service, "warm-up") {
                    _ = try client.measure("sequential", service.arguments + ["--count", "\(options.warmupCalls)"],
                                           service: service.pid, bus: busPID)
                }
            }
        }

        // The targets alternate within each repetition, so drifts in background load (the machine is
        // shared) hit all alike; the median repetition is reported.
        let sequential = ["--count", "\(options.sequentialCalls)"]
        let pipelined = ["--count", "\(options.pipelinedCalls)", "--inflight", "\(options.inflight)"]
        for repetition in 1...options.repetitions {
            progress("repetition \(repetition)/\(options.repetitions): sequential \(options.sequentialCalls) calls, "
                + "pipelined \(options.pipelinedCalls) calls (\(options.inflight) in flight), per target")
            let services = services.alternating(repetition)
            for service in services {
                try step(service, "sequential run") {
                    report.sequential.add(
                        try client.measure("sequential", service.arguments + sequential, service: service.pid, bus: busPID),
                        for: service.target)
                }
            }
            for service in services {
                try step(service, "pipelined run") {
                    report.pipelined.add(
                        try client.measure("pipelined", service.arguments + pipelined, service: service.pid, bus: busPID),
                        for: service.target)
                }
            }
        }

        // Like the tables above: the targets alternate for --repeat runs and each reports its median run (by the
        // signal's p50), so a drift in background load hits both alike.
        progress("OpenURL -> Changed: \(options.repetitions) × \(options.urlRounds) rounds per target")
        for repetition in 1...options.repetitions {
            for service in services.alternating(repetition) where service.target != .echo {
                try step(service, "OpenURL -> Changed") {
                    report.urlSignal.runs[service.target.rawValue, default: []].append(
                        try client.urlSignal(["--dest", service.name, "--arg", options.url, "--count", "\(options.urlRounds)"]))
                }
            }
        }
        if daemon == nil { report.urlSignal.runs[Target.navsessiond.rawValue] = nil }
        report.urlSignal.floor = report.urlSignal.runs[Target.floor.rawValue]?.lowerMedian { $0.signalP50Us }
        report.urlSignal.navsessiond = report.urlSignal.runs[Target.navsessiond.rawValue]?.lowerMedian { $0.signalP50Us }
        report.urlSignal.computeRatios()

        for depth in options.depths {
            progress("depth \(depth): \(options.repetitions) × \(options.depthCalls) sequential calls per target")
            report.depth.append(try measureDepth(depth, services.filter { $0.target != .echo }, client: client, bus: busPID))
        }

        if let current = daemon, options.windows > 1 {
            progress("windows: \(options.repetitions) × \(options.depthCalls) sequential calls per daemon, one with 1 and one "
                + "with \(options.windows) open windows")
            report.windows = measureWindows(against: current, bus: bus, client: client)
        }

        if options.tools, let current = daemon {
            report.tools = try timeTools(window: current.window, bus: bus)
        }

        if options.callgrind {
            report.instructions = try countInstructions(
                echo: echoBinary, floor: floorBinary, sources: sources, clientBinary: clientBinary)
        }
        report.host = HostActivity(from: hostAtStart, to: HostActivity.Sample.now())
        report.evaluateGoals()
        return report
    }

    /// The floor's one window.
    static let floorWindow = "/org/navsession/Session1/window/1"

    /// Both targets' cost per call with their stacks `depth` elements deep: each stack is built once, then the
    /// targets alternate for `--repeat` runs of `--depth-calls` sequential calls, so drifts in background load
    /// hit both alike (as in the main table); each figure is its median, the ratio the median of the
    /// repetitions' ratios.
    private func measureDepth(_ depth: Int, _ targets: [Service], client: LoadClient, bus: pid_t) throws -> DepthRow {
        var row = DepthRow(depth: depth)
        var reached: [Service] = []
        for service in targets {
            do {
                if depth > 0 {
                    _ = try client.measure("pipelined", ["--dest", service.name, "--path", service.window,
                                                         "--call", "stack-append", "--count", "\(depth)", "--inflight", "64"],
                                           service: service.pid, bus: bus)
                }
                reached.append(service)
            } catch BenchError.errorReply(let name, let detail) {
                row.refused = "\(service.target.rawValue): \(name) \(detail)"
            }
        }
        // Back to the root whatever depth was reached, after the runs below.
        defer {
            for service in targets where depth > 0 {
                _ = try? client.once(["--dest", service.name, "--call", "stack-drop", "--path", service.window,
                                      "--arg", "\(depth)"])
            }
        }
        var runs: [Target: [Measurement]] = [:]
        for repetition in 1...options.repetitions {
            for service in reached.alternating(repetition) {
                runs[service.target, default: []].append(try depthRun(service, client: client, bus: bus))
            }
        }
        let floor = runs[.floor].flatMap(Measurement.medians(of:))
        let navsessiond = runs[.navsessiond].flatMap(Measurement.medians(of:))
        row.floorCpuPerCall = floor?.serviceCpuUsPerCall
        row.floorCallsPerSecond = floor?.run.callsPerSec
        row.navsessiondCpuPerCall = navsessiond?.serviceCpuUsPerCall
        row.navsessiondCallsPerSecond = navsessiond?.run.callsPerSec
        row.ratioToFloor = medianRatio(
            (runs[.navsessiond] ?? []).map(\.serviceCpuUsPerCall), (runs[.floor] ?? []).map(\.serviceCpuUsPerCall))
        return row
    }

    /// The cost per call with `--windows` open windows against one: a second daemon (same binary, its own bus
    /// name and state) opens the windows, then the two alternate for `--repeat` runs of `--depth-calls` sequential
    /// calls, so drifts in background load hit both alike (as in the main table); medians are reported, and the
    /// ratio is the median of the repetitions' ratios.
    private func measureWindows(against one: Service, bus: BenchBus, client: LoadClient) -> WindowsRow {
        var row = WindowsRow(count: options.windows)
        do {
            let name = options.daemonName + ".Windows"
            let started = try startDaemon(bus: bus, client: client, name: name, logName: "navsessiond-windows.log")
            defer { Children.stop(started.pid) }
            let many = Service(target: .navsessiond, pid: started.pid, name: name, window: started.window)
            for _ in 1..<options.windows {
                _ = try client.once(["--call", "open-window", "--dest", name, "--path", session, "--arg", "waiting"])
            }
            let busPID = bus.process.processIdentifier
            _ = try client.measure("sequential", many.arguments + ["--count", "\(options.warmupCalls)"], service: many.pid, bus: busPID)
            var oneRuns: [Double] = []
            var manyRuns: [Double] = []
            for repetition in 1...options.repetitions {
                for daemon in [one, many].alternating(repetition) {
                    let cost = try depthRun(daemon, client: client, bus: busPID).serviceCpuUsPerCall
                    if daemon.pid == one.pid { oneRuns.append(cost) } else { manyRuns.append(cost) }
                }
            }
            row.oneWindowCpuPerCall = oneRuns.lowerMedian { $0 }
            row.manyWindowsCpuPerCall = manyRuns.lowerMedian { $0 }
            row.ratio = medianRatio(manyRuns, oneRuns)
        } catch {
            row.refused = "\(error)"
        }
        return row
    }

    /// One run of `--depth-calls` sequential calls.
    private func depthRun(_ service: Service, client: LoadClient, bus: pid_t) throws -> Measurement {
        try client.measure("sequential", service.arguments + ["--count", "\(options.depthCalls)"], service: service.pid, bus: bus)
    }

    /// Starts navsessiond on the private bus and opens the window the stack calls go to.
    func startDaemon(
        bus: BenchBus, client: LoadClient, executable: String? = nil, daemonArguments: [String] = [], name: String? = nil,
        environment: [String: String] = [:], logName: String = "navsessiond.log", timeout: TimeInterval = 20
    ) throws -> (pid: pid_t, window: String) {
        let path = try executable ?? locateDaemon()
        let name = name ?? options.daemonName
        let daemonArguments = name == options.daemonName ? daemonArguments : daemonArguments + ["--name", name, "--demo"]
        // The state directory is the workspace's: journal lines and snapshots are written as in production.
        let state = workspace.path("daemon-state-\(logName)")
        let process = try Tool.start(path, daemonArguments + ["--bus", bus.address, "--state-dir", state], busAddress: bus.address,
                                     logName: logName, environment: environment, in: workspace)
        try bus.waitForName(name, owner: process, logName: logName, timeout: timeout, in: workspace)
        let window = try client.once(["--call", "open-window", "--dest", name, "--path", session, "--arg", "main"])
        guard window.hasPrefix("/") else {
            throw BenchError.failed("OpenWindow(\"main\", {}) returned '\(window)', not an object path")
        }
        progress("daemon window: \(window)")
        // Log in first: the demo starts logged out (its login state is a stack, so StackAppend would not
        // fail) and deep links wait for the logged-in state; measurements need the "main" state.
        _ = try client.once(["--call", "switch-model", "--dest", name, "--path", window, "--arg", "main"])
        _ = try client.once(["--call", "stack-pair", "--dest", name, "--path", window])
        return (process.processIdentifier, window)
    }

    func locateDaemon() throws -> String {
        let path = options.daemonPath ?? executableDirectory().appendingPathComponent("navsessiond").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError.failed("no executable at \(path); build it with "
                + "`swift build -c release --product navsessiond` or pass --daemon PATH")
        }
        return path
    }

    /// Benchmarks/ (echo/, floor/, callgrind/): given, or found in the working directory or above this executable
    /// (`.build/<triple>/release/` sits inside the package).
    private func locateSources() throws -> String {
        if let dir = options.benchmarksDir { return dir }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var dir = executableDirectory()
        while dir.path != "/" {
            candidates.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        for candidate in candidates {
            let benchmarks = candidate.appendingPathComponent("Benchmarks")
            if FileManager.default.fileExists(atPath: benchmarks.appendingPathComponent("echo/bench-client.c").path) {
                return benchmarks.path
            }
        }
        throw BenchError.failed("cannot find Benchmarks/; run from the package root or pass --benchmarks-dir")
    }

    func executableDirectory() -> URL {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Compiles one C program with the flags the project holds C to; warnings are shown, not hidden.
    func compile(_ source: String, into name: String, extraFlags: [String] = []) throws -> String {
        let pkg = try Tool.run("pkg-config", ["--cflags", "--libs", "dbus-1"], in: workspace)
        guard pkg.status == 0 else {
            throw BenchError.failed("pkg-config dbus-1 failed (is libdbus-1-dev installed?): \(pkg.stderr)")
        }
        let output = workspace.path(name)
        let flags = pkg.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        // The Swift toolchain always brings clang; a system `cc` may be absent on a minimal image.
        guard let compiler = ["cc", "clang"].first(where: Tool.isInPath) else {
            throw BenchError.failed("no C compiler: neither cc nor clang is in PATH")
        }
        let result = try Tool.run(compiler, ["-Wall", "-Wextra", "-O2"] + extraFlags + ["-o", output, source] + flags + ["-lm"],
                                  in: workspace)
        guard result.status == 0 else { throw BenchError.failed("\(compiler) \(source) failed: \(result.stderr)") }
        if !result.stderr.isEmpty { progress("\(compiler) \(source): \(result.stderr)") }
        return output
    }

    private func setup() -> Report.Setup {
        let version = (try? Tool.run("dbus-daemon", ["--version"], in: workspace))?.stdout
            .split(separator: "\n").first.map(String.init) ?? "dbus-daemon (version unknown)"
        return Report.Setup(dbusDaemon: version, cpus: ProcessInfo.processInfo.activeProcessorCount,
                            cpuClock: CPUTime.source,
                            sequentialCalls: options.sequentialCalls, pipelinedCalls: options.pipelinedCalls,
                            inflight: options.inflight, warmupCalls: options.warmupCalls,
                            repetitions: options.repetitions,
                            urlRounds: options.urlRounds, url: options.url, depthCalls: options.depthCalls)
    }
}
