import Foundation

extension BenchmarkRun {
    /// Median wall time of one `GetRoutes` call made by a whole process: navsessionctl against the tools a
    /// script would otherwise use. The tools run in turn, so load drifts hit all alike.
    func timeTools(window: String, bus: BenchBus) throws -> ToolTimes? {
        let ctl = options.navsessionctlPath ?? executableDirectory().appendingPathComponent("navsessionctl").path
        let number = window.split(separator: "/").last.map(String.init) ?? "1"
        var commands: [(name: String, program: String, arguments: [String])] = [
            ("navsessionctl", ctl, ["routes", number, "--json"]),
            ("gdbus", "gdbus", ["call", "--session", "--dest", options.daemonName, "--object-path", window,
                                "--method", "org.navsession.Window1.GetRoutes"]),
            ("busctl", "busctl", ["--user", "call", options.daemonName, window, "org.navsession.Window1", "GetRoutes"]),
            ("dbus-send", "dbus-send", ["--session", "--print-reply", "--dest=\(options.daemonName)", window,
                                        "org.navsession.Window1.GetRoutes"]),
        ]
        commands.removeAll { $0.program.contains("/") ? !FileManager.default.isExecutableFile(atPath: $0.program) : !Tool.isInPath($0.program) }
        guard commands.contains(where: { $0.name == "navsessionctl" }) else {
            progress("tools: no navsessionctl at \(ctl); build it or pass --navsessionctl PATH")
            return nil
        }
        progress("tools: one GetRoutes call per process, \(options.toolRuns) runs each")
        var times: [String: [Double]] = [:]
        for _ in 0..<options.toolRuns {
            for command in commands {
                let (status, elapsed) = try Self.timedSpawn(command.program, command.arguments, busAddress: bus.address)
                guard status == 0 else {
                    throw BenchError.failed("\(command.name) exited \(status); run it by hand to see why")
                }
                times[command.name, default: []].append(elapsed)
            }
        }
        var report = ToolTimes(runs: options.toolRuns, call: "Window1.GetRoutes")
        for (name, values) in times {
            report.milliseconds[name] = values.lowerMedian { $0 }
        }
        report.ratioToGdbus = ratio(report.milliseconds["navsessionctl"], report.milliseconds["gdbus"])
        report.ratioToDbusSend = ratio(report.milliseconds["navsessionctl"], report.milliseconds["dbus-send"])
        return report
    }

    /// Runs `program` (found in PATH unless it has a slash) with output discarded; returns its exit status
    /// and the milliseconds from spawn to exit. posix_spawn directly: Foundation's Process adds
    /// milliseconds of its own per start, which would hide the difference being measured.
    static func timedSpawn(_ program: String, _ arguments: [String], busAddress: String) throws -> (Int32, Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = Tool.environment(busAddress: busAddress).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError.failed("cannot start \(program): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exited, elapsed)
    }
}
