import Foundation

/// One benchmark run: build the C programs, start bus + echo + daemon, measure, report.
final class BenchmarkRun {
    private let options: Options
    private let workspace: Workspace
    private let session = "/org/navsession/Session1"

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

    private func measure() throws -> Report {
        let sources = try locateSources()
        let echoBinary = try compile(sources + "/echo-service.c", into: "echo-service")
        let clientBinary = try compile(sources + "/bench-client.c", into: "bench-client")

        let bus = try BenchBus.start(in: workspace)
        progress("private bus at \(bus.address)")
        let client = LoadClient(executable: clientBinary, busAddress: bus.address, workspace: workspace)

        let echo = try Tool.start(echoBinary, [options.echoName], busAddress: bus.address, logName: "echo.log",
                                  in: workspace)
        try bus.waitForName(options.echoName, owner: echo, logName: "echo.log", timeout: 10, in: workspace)

        var report = Report(setup: setup())
        var daemon: (pid: pid_t, window: String)?
        if options.skipDaemon {
            report.daemonUnavailable = "skipped with --no-daemon"
        } else {
            do {
                daemon = try startDaemon(bus: bus, client: client)
            } catch {
                report.daemonUnavailable = "\(error)"
                progress("daemon: not available (\(error))")
            }
        }

        let echoArgs = ["--dest", options.echoName, "--call", "echo"]
        let daemonArgs = { (window: String) in ["--dest", self.options.daemonName, "--call", "stack-pair", "--path", window] }
        let busPID = bus.process.processIdentifier
        let echoPID = echo.processIdentifier

        // Daemon steps run only while the daemon works; its first failure is recorded and ends its half.
        func daemonStep(_ what: String, _ body: (pid_t, String) throws -> Void) {
            guard let current = daemon else { return }
            do {
                try body(current.pid, current.window)
            } catch {
                report.daemonUnavailable = "\(what): \(error)"
                progress("daemon: \(what) failed: \(error)")
                daemon = nil
            }
        }

        // Warm-up: page in code paths and let both services reach steady state; not measured.
        if options.warmupCalls > 0 {
            progress("warm-up: \(options.warmupCalls) calls per target")
            _ = try client.measure("sequential", echoArgs + ["--count", "\(options.warmupCalls)"],
                                   service: echoPID, bus: busPID)
            daemonStep("warm-up") { pid, window in
                _ = try client.measure("sequential", daemonArgs(window) + ["--count", "\(options.warmupCalls)"],
                                       service: pid, bus: busPID)
            }
        }

        // Echo and daemon alternate within each repetition, so drifts in background load (the
        // machine is shared) hit both alike; the median repetition is reported.
        let sequential = ["--count", "\(options.sequentialCalls)"]
        let pipelined = ["--count", "\(options.pipelinedCalls)", "--inflight", "\(options.inflight)"]
        for repetition in 1...options.repetitions {
            progress("repetition \(repetition)/\(options.repetitions): sequential \(options.sequentialCalls) calls, "
                + "pipelined \(options.pipelinedCalls) calls (\(options.inflight) in flight), per target")
            report.echo.add(sequential: try client.measure("sequential", echoArgs + sequential,
                                                           service: echoPID, bus: busPID))
            daemonStep("sequential run") { pid, window in
                report.daemon.add(sequential: try client.measure("sequential", daemonArgs(window) + sequential,
                                                                 service: pid, bus: busPID))
            }
            report.echo.add(pipelined: try client.measure("pipelined", echoArgs + pipelined,
                                                          service: echoPID, bus: busPID))
            daemonStep("pipelined run") { pid, window in
                report.daemon.add(pipelined: try client.measure("pipelined", daemonArgs(window) + pipelined,
                                                                service: pid, bus: busPID))
            }
        }

        daemonStep("OpenURL -> Changed") { _, _ in
            progress("OpenURL -> Changed: \(options.urlRounds) rounds")
            report.urlSignal = try client.urlSignal(["--dest", options.daemonName, "--arg", options.url,
                                                     "--count", "\(options.urlRounds)"])
        }
        report.computeRatios()
        return report
    }

    /// Starts navsessiond on the private bus and opens the window the stack calls go to.
    private func startDaemon(bus: BenchBus, client: LoadClient) throws -> (pid: pid_t, window: String) {
        let path = try locateDaemon()
        let process = try Tool.start(path, ["--bus", bus.address], busAddress: bus.address, logName: "navsessiond.log",
                                     in: workspace)
        try bus.waitForName(options.daemonName, owner: process, logName: "navsessiond.log", timeout: 20,
                            in: workspace)
        let name = options.daemonName
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

    private func locateDaemon() throws -> String {
        let path = options.daemonPath ?? executableDirectory().appendingPathComponent("navsessiond").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError.failed("no executable at \(path); build it with "
                + "`swift build -c release --product navsessiond` or pass --daemon PATH")
        }
        return path
    }

    /// Benchmarks/echo: given, or found in the working directory or above this executable
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
            let echo = candidate.appendingPathComponent("Benchmarks/echo")
            if FileManager.default.fileExists(atPath: echo.appendingPathComponent("bench-client.c").path) {
                return echo.path
            }
        }
        throw BenchError.failed("cannot find Benchmarks/echo; run from the package root or pass --benchmarks-dir")
    }

    private func executableDirectory() -> URL {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Compiles one C program with the flags the project holds C to; warnings are shown, not hidden.
    private func compile(_ source: String, into name: String) throws -> String {
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
        let result = try Tool.run(compiler, ["-Wall", "-Wextra", "-O2", "-o", output, source] + flags + ["-lm"],
                                  in: workspace)
        guard result.status == 0 else { throw BenchError.failed("\(compiler) \(source) failed: \(result.stderr)") }
        if !result.stderr.isEmpty { progress("\(compiler) \(source): \(result.stderr)") }
        return output
    }

    private func setup() -> Report.Setup {
        let version = (try? Tool.run("dbus-daemon", ["--version"], in: workspace))?.stdout
            .split(separator: "\n").first.map(String.init) ?? "dbus-daemon (version unknown)"
        return Report.Setup(dbusDaemon: version, cpus: ProcessInfo.processInfo.activeProcessorCount,
                            clockTicksPerSecond: CPUTime.ticksPerSecond,
                            sequentialCalls: options.sequentialCalls, pipelinedCalls: options.pipelinedCalls,
                            inflight: options.inflight, warmupCalls: options.warmupCalls,
                            repetitions: options.repetitions,
                            urlRounds: options.urlRounds, url: options.url)
    }
}
