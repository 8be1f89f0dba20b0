import Foundation

extension BenchmarkRun {
    /// Instructions per call for each target, counted by valgrind's callgrind: each service runs alone under
    /// it with instrumentation off, is warmed up, and only the measured sequential calls are instrumented
    /// (`callgrind_control -i on/off`). Counts do not depend on the machine's load, unlike timings.
    func countInstructions(echo: String, floor: String, sources: String, clientBinary: String) throws -> Instructions? {
        guard Tool.isInPath("valgrind"), Tool.isInPath("callgrind_control") else {
            progress("callgrind: valgrind is not installed; skipped (apt-get install valgrind)")
            return nil
        }
        let shim = try compile(sources + "/callgrind/sigsuspend-copy.c", into: "sigsuspend-copy.so",
                               extraFlags: ["-shared", "-fPIC"])
        // A bus of its own: the daemon measured above still owns its name on the main one.
        let bus = try BenchBus.start(in: workspace)
        defer {
            bus.process.terminate()
            bus.process.waitUntilExit()
        }
        let client = LoadClient(executable: clientBinary, busAddress: bus.address, workspace: workspace)
        var result = Instructions(calls: options.callgrindCalls)
        for target in Target.allCases {
            progress("callgrind: \(target.rawValue), \(options.callgrindCalls) calls")
            do {
                result.perCall[target.rawValue] = try instructionsPerCall(
                    target, echo: echo, floor: floor, shim: shim, bus: bus, client: client)
            } catch {
                progress("callgrind: \(target.rawValue) failed: \(error)")
            }
        }
        result.ratioToFloor = ratio(result.perCall[Target.navsessiond.rawValue], result.perCall[Target.floor.rawValue])
        countScenarios(into: &result, sources: sources)
        return result
    }

    /// The daemon's instructions per call in the situations whose cost must not grow with their size: a plain
    /// window, 64 followers of the changed stack, 64 marked screens, a stack 10 000 deep — each by
    /// `Benchmarks/callgrind/followers-and-marks.py` (its own bus and daemon under callgrind), so the ratios between
    /// them come from one run of one build.
    private func countScenarios(into result: inout Instructions, sources: String) {
        let script = sources + "/callgrind/followers-and-marks.py"
        guard FileManager.default.isReadableFile(atPath: script), let daemon = try? locateDaemon() else {
            progress("callgrind scenarios: \(script) or the daemon is missing; skipped")
            return
        }
        for scenario in Instructions.situations {
            progress("callgrind: navsessiond with \(scenario.mode) \(scenario.count), \(options.callgrindCalls) calls")
            do {
                let run = try Tool.run(
                    "/usr/bin/python3",
                    [script, daemon, scenario.mode, String(scenario.count), String(options.callgrindCalls)],
                    in: workspace)
                // Its last line: "<mode> <n>: <instructions> instructions per call".
                guard run.status == 0,
                    let line = run.stdout.split(separator: "\n").last(where: { $0.hasSuffix("instructions per call") }),
                    let figure = line.split(separator: " ").dropLast(3).last.flatMap({ Double($0) })
                else { throw BenchError.failed("exited \(run.status): \(run.stderr.suffix(400))") }
                result.scenarios[scenario.key] = figure
            } catch {
                progress("callgrind: \(scenario.mode) \(scenario.count) failed: \(error)")
            }
        }
    }

    private func instructionsPerCall(
        _ target: Target, echo: String, floor: String, shim: String, bus: BenchBus, client: LoadClient
    ) throws -> Double {
        let output = workspace.path("callgrind.\(target.rawValue)")
        let valgrind = ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(output).%p"]
        // The preloaded shim keeps valgrind 3.19 alive under libdispatch (Benchmarks/callgrind).
        let environment = ["LD_PRELOAD": shim]
        let name = "org.navsession.BenchCallgrind.\(target.rawValue == "navsessiond" ? "Daemon" : target.rawValue.capitalized)"
        let pid: pid_t
        let arguments: [String]
        switch target {
        case .echo, .floor:
            let binary = target == .echo ? echo : floor
            var serviceArguments = [name]
            if target == .floor { serviceArguments.append(workspace.path("callgrind-floor-state")) }
            let process = try Tool.start("valgrind", valgrind + [binary] + serviceArguments, busAddress: bus.address,
                                         logName: "callgrind-\(target.rawValue).log", environment: environment,
                                         in: workspace)
            try bus.waitForName(name, owner: process, logName: "callgrind-\(target.rawValue).log", timeout: 60,
                                in: workspace)
            pid = process.processIdentifier
            arguments = target == .echo
                ? ["--dest", name, "--call", "echo"]
                : ["--dest", name, "--call", "stack-pair", "--path", Self.floorWindow]
        case .navsessiond:
            // valgrind cannot read the Swift toolchain's compressed DWARF; symbols are enough for counting.
            let copy = workspace.path("navsessiond-stripped")
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: try locateDaemon(), toPath: copy)
            _ = try Tool.run("strip", ["--strip-debug", copy], in: workspace)
            let started = try startDaemon(
                bus: bus, client: client, executable: "valgrind", daemonArguments: valgrind + [copy],
                environment: environment, logName: "callgrind-navsessiond.log", timeout: 120)
            pid = started.pid
            arguments = ["--dest", options.daemonName, "--call", "stack-pair", "--path", started.window]
        }
        defer { Children.stop(pid, grace: 30) }
        _ = try client.measure("sequential", arguments + ["--count", "500"], service: pid, bus: bus.process.processIdentifier)
        try control(["-i", "on", "\(pid)"])
        _ = try client.measure("sequential", arguments + ["--count", "\(options.callgrindCalls)"], service: pid,
                               bus: bus.process.processIdentifier)
        try control(["-i", "off", "\(pid)"])
        try control(["-d", "\(pid)"])
        // Instrumentation was on only for the measured calls, so every dump's total belongs to them.
        let directory = workspace.directory.path
        let prefix = "callgrind.\(target.rawValue).\(pid)"
        var total = 0.0
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasPrefix(prefix) {
            let text = (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? ""
            // `summary:` is the file's running total at its start (0 here); `totals:` what it collected.
            for line in text.split(separator: "\n") where line.hasPrefix("totals:") {
                total += Double(line.split(separator: " ").last.map(String.init) ?? "") ?? 0
            }
        }
        guard total > 0 else { throw BenchError.failed("no callgrind counts in \(prefix)*") }
        return total / Double(options.callgrindCalls)
    }

    private func control(_ arguments: [String]) throws {
        let result = try Tool.run("callgrind_control", arguments, in: workspace)
        guard result.status == 0 else { throw BenchError.failed("callgrind_control \(arguments): \(result.stderr)") }
    }
}
