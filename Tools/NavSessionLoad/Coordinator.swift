import DBusKit
import DBusTestSupport
import Foundation

/// The run: a private bus, navsessiond on a throwaway state directory, the windows, the client
/// processes, the subscriber, (fault mode) the kills, takeovers and second daemons, then the verification
/// and the report.
final class Coordinator {
    let options: Options
    let workspace: Workspace
    private var random: SplitMix64
    private let events = Watched(ProcessEvents())
    private var generations: [String: Int] = [:]
    private var restores: [Int: [UInt64: String]] = [:]
    private var windows: [UInt64: (path: String, scene: String)] = [:]
    private var setupRecords: [CallRecord] = []
    private var faultLog = FaultLog()
    /// Why the fault injection stopped early, when it did (a problem of the run).
    private var faultsStopped: String?
    private var unique = ""

    init(options: Options, workspace: Workspace) {
        self.options = options
        self.workspace = workspace
        random = SplitMix64(seed: options.seed ^ 0x5EED_F00D)
    }

    /// Runs everything; returns whether every check passed.
    func run() async throws -> Bool {
        let faults = options.mode == .fault
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        progress("private bus at \(bus.address); scratch directory \(workspace.directory); seed \(options.seed)")
        let control = try await bus.connect()
        try await ProcessEvents.followOwner(of: DaemonProcess.name, on: control, into: events)
        if faults, options.secondDaemons > 0 {
            try await ProcessEvents.followOwner(of: SecondDaemonStart.otherName, on: control, into: events)
        }
        let recorder = try await ChangeRecorder.start(on: try await bus.connect())
        let controlSignals = try await control.signals(matching: try ControlChannel.rule())
        let events = events
        Task {
            for await signal in controlSignals where signal.member.rawValue == "Ready" {
                if let client = signal.arguments.first?.int32 { events.update { _ = $0.ready.insert(Int(client)) } }
            }
        }

        let daemon = DaemonProcess(
            binary: try daemonBinary(), busAddress: bus.address, stateDirectory: workspace.path("state"),
            log: workspace.path("navsessiond.log"), events: events)
        unique = try await daemon.start()
        generations[unique] = 0
        try await setUpWindows(on: control)

        // Clients: start, wait until each is subscribed, then one Go starts them all.
        var clients: [Int32] = []
        let own = windows.filter { $0.value.scene == "waiting" }.keys.sorted().dropFirst()
        let main = try path(of: "main"), shared = try path(of: "waiting")
        for (client, window) in zip(0..<options.clients, own) {
            let process = try ProcessEvents.launch(
                try executable(),
                [
                    "worker", "--bus", bus.address, "--client", "\(client)", "--own", windows[window]?.path ?? "",
                    "--main", main, "--shared", shared, "--commands", "\(options.commands)",
                    "--seed", "\(options.seed &+ UInt64(client) &* 7919)", "--out", workspace.path("client-\(client).json"),
                ] + (faults ? ["--until-stop"] : []),
                log: workspace.path("client-\(client).log"), into: events)
            clients.append(process.processIdentifier)
        }
        let count = options.clients
        let pids = clients
        // Until all are subscribed, or one died first.
        guard let readiness = await events.wait(
            within: .seconds(120), until: { state in state.ready.count >= count || pids.contains { state.exited[$0] != nil } }),
              readiness.ready.count >= count
        else { throw LoadError("clients did not all subscribe within 120 s: \(clientLogs())") }

        let startTicks = daemon.totalTicks
        let clock = ContinuousClock()
        let started = clock.now
        try await ControlChannel.emit("Go", [.string(unique), .int32(0)], on: control)
        let plan = Fault.plan(
            kills: options.kills, replaces: options.replaces, secondDaemons: options.secondDaemons, random: &random)
        progress(faults
            ? "load running; \(options.kills) kills, \(options.replaces) --replace takeovers, \(options.secondDaemons) second daemons"
            : "load running: \(count) clients x \(options.commands) commands")

        if faults {
            try await inject(plan, into: daemon, recorder: recorder, control: control)
            if faultsStopped == nil {
                let changes = recorder.counts.value[unique, default: 0] + Int.random(in: 1...options.changesBetweenKills, using: &random)
                _ = await recorder.wait(for: changes, from: unique, within: .seconds(120))
            }
            try await ControlChannel.emit("Stop", [], on: control)
        }
        guard await events.wait(within: .seconds(options.timeout), until: { state in pids.allSatisfy { state.exited[$0] != nil } }) != nil
        else { throw LoadError("clients did not finish within \(options.timeout) s: \(clientLogs())") }
        let elapsed = clock.now - started
        let daemonTicks = daemon.totalTicks - startTicks
        for pid in pids where events.value.exited[pid] != 0 {
            throw LoadError("a client exited with status \(events.value.exited[pid] ?? -1): \(clientLogs())")
        }

        // Final states; then every Changed of the last instance must have reached the subscriber (each was
        // sent before its reply; bounded wait); then a clean stop and start must bring the same states back.
        let final = try await states(on: control)
        let expectedSignals = try signalsExpected(final: final)
        _ = await recorder.wait(for: expectedSignals, from: unique, within: .seconds(30))
        let stopStatus = try await daemon.stop()
        unique = try await daemon.start()
        generations[unique] = Int.max - 1
        let afterCleanRestart = try await states(on: control)
        _ = try await daemon.stop()

        var records = setupRecords
        for client in 0..<count {
            let data = try Data(contentsOf: URL(fileURLWithPath: workspace.path("client-\(client).json")))
            records += try JSONDecoder().decode(ClientResult.self, from: data).records
        }
        let run = RunData(
            windows: windows.mapValues(\.scene), records: records, changes: recorder.all, generations: generations,
            restores: restores, final: final, faults: faults, faultOf: faultLog.faultOf)
        var verification = Verifier(data: run, context: try ReplayContext()).verify()
        if stopStatus != 0 { verification.problem("navsessiond exited with status \(stopStatus) after SIGTERM") }
        for (takeover, status) in faultLog.replacedStatuses.enumerated() where status != 0 {
            verification.problem("takeover \(takeover + 1): the replaced navsessiond exited with status \(status), not 0")
        }
        if let faultsStopped { verification.problem(faultsStopped) }
        for (number, failure) in faultLog.failedTakeovers.enumerated() {
            verification.problem("failed takeover \(number + 1): navsessiond --replace \(failure)")
        }
        for (number, start) in faultLog.secondDaemons.enumerated() where !start.refused {
            verification.problem("second daemon \(number + 1) (\(start.busName)) did not refuse to start: "
                + (start.served.map { "served as \($0), " } ?? "") + "exit status \(start.status): \(start.message)")
        }
        for (window, json) in final where afterCleanRestart[window] != json {
            verification.problem("window \(window): state after a clean stop and start differs from the final state")
        }
        let report = LoadReport(
            options: options, records: records.filter { $0.client >= 0 }, elapsed: elapsed, daemonTicks: daemonTicks,
            faultLog: faultLog, windows: windows.count, verification: verification)
        print(report.text())
        return verification.problems.isEmpty
    }

    /// Changes the last working instance made: from each window's restored version to its final one.
    private func signalsExpected(final: [UInt64: String]) throws -> Int {
        let restored = restores.keys.max().flatMap { restores[$0] } ?? [:]
        func version(_ json: String?) throws -> Int {
            guard let json, let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                  let version = object["version"] as? Int
            else { throw LoadError("a GetState reply without a version") }
            return version
        }
        return try final.keys.reduce(0) { sum, window in
            sum + (try version(final[window])) - (restored[window] == nil ? 0 : try version(restored[window]))
        }
    }

    // MARK: Windows

    /// The main window (logged in) and a waiting window (a cover with tabs) shared by all, and one waiting
    /// window per client; their setup changes are acknowledged commands like any other.
    private func setUpWindows(on control: Bus) async throws {
        let main = try await openWindow("main", on: control)
        try await setUp(main, .switchModel(screen: "main"), on: control)
        for _ in 0...options.clients {
            let window = try await openWindow("waiting", on: control)
            try await setUp(window, .apply(batchJSON: CommandMix.coverWithTabs), on: control)
        }
    }

    private func openWindow(_ scene: String, on control: Bus) async throws -> UInt64 {
        let reply = try await control.call(
            destination: try BusName(unique), path: try ObjectPath(LoadCommand.session),
            interface: try InterfaceName(LoadCommand.sessionInterface), member: try MemberName("OpenWindow"),
            arguments: [.string(scene), LoadCommand.dictionary([:])], timeout: .seconds(30))
        guard let path = reply.first?.objectPath?.rawValue else { throw LoadError("OpenWindow(\(scene)) returned \(reply)") }
        let number = try ClientWorker.number(of: path)
        windows[number] = (path, scene)
        return number
    }

    private func setUp(_ window: UInt64, _ command: LoadCommand, on control: Bus) async throws {
        let outcome = await ClientWorker.send(command, to: windows[window]?.path ?? "", daemon: unique, on: control, faults: false)
        guard case .acknowledged = outcome else { throw LoadError("setup \(command.name) on window \(window): \(outcome)") }
        setupRecords.append(
            CallRecord(client: -1, window: window, command: command, generation: 0, outcome: outcome, micros: 0))
    }

    private func path(of scene: String) throws -> String {
        guard let entry = windows.sorted(by: { $0.key < $1.key }).first(where: { $0.value.scene == scene }) else {
            throw LoadError("no \(scene) window")
        }
        return entry.value.path
    }

    /// Every window's GetState JSON from the current daemon; a window missing from ListWindows is left out
    /// (the verifier reports it and its acknowledged changes as lost).
    private func states(on control: Bus) async throws -> [UInt64: String] {
        let listed = try await control.call(
            destination: try BusName(unique), path: try ObjectPath(LoadCommand.session),
            interface: try InterfaceName(LoadCommand.sessionInterface), member: try MemberName("ListWindows"),
            timeout: .seconds(30))
        let open = Set((listed.first?.arrayElements ?? []).compactMap { $0.objectPath?.rawValue })
        var result: [UInt64: String] = [:]
        for (number, window) in windows {
            guard open.contains(window.path) else { continue }
            let reply = try await control.call(
                destination: try BusName(unique), path: try ObjectPath(window.path),
                interface: try InterfaceName(LoadCommand.windowInterface), member: try MemberName("GetState"),
                timeout: .seconds(30))
            result[number] = reply.first?.string ?? ""
        }
        return result
    }

    // MARK: Faults

    /// Injects `plan`'s faults one after another, each after a random number of changes since the last. Every
    /// fault ends with a new daemon instance; its restored states are read before the `Go` that lets the
    /// clients call it.
    private func inject(_ plan: [Fault], into daemon: DaemonProcess, recorder: ChangeRecorder, control: Bus) async throws {
        let clock = ContinuousClock()
        var generation = 0
        for fault in plan {
            guard try await awaitChanges(from: daemon, recorder: recorder, after: generation) else { return }
            switch fault {
            case .kill:
                faultLog.restartTimes.append(try await killAndRestart(daemon, recorder: recorder, injectLoss: options.injectLoss))
            case .replace:
                let started = clock.now
                switch try await daemon.replace() {
                case .handedOver(let next, let status):
                    unique = next
                    faultLog.takeoverTimes.append(clock.now - started)
                    faultLog.replacedStatuses.append(status)
                case .failed(let status, let log):
                    // No new instance: the old one serves on, and the next fault or the end shows what the try cost.
                    faultLog.failedTakeovers.append("exit \(status): \(log)")
                    progress("a navsessiond --replace exited with status \(status) before owning the name")
                    continue
                }
            case .secondDaemon:
                let number = faultLog.secondDaemons.count + 1
                faultLog.secondDaemons.append(
                    try await SecondDaemonStart.run(
                        sameName: number % 2 == 1, beside: daemon, mainOwner: unique,
                        log: workspace.path("second-daemon-\(number).log")))
                // The running daemon goes on acknowledging; the restart shows whether its state directory kept it all.
                guard try await awaitChanges(from: daemon, recorder: recorder, after: generation) else { return }
                _ = try await killAndRestart(daemon, recorder: recorder, injectLoss: false)
            }
            generation += 1
            generations[unique] = generation
            faultLog.faultOf[generation] = fault
            let restored = try await states(on: control)
            restores[generation] = restored
            try await ControlChannel.emit("Go", [.string(unique), .int32(Int32(generation))], on: control)
            if generation % 10 == 0 { progress("\(generation) faults") }
            if restored.isEmpty {
                // No window left to change: the load cannot go on, the verification reports what was lost.
                faultsStopped = "the restart after fault \(generation) (\(fault.rawValue)) restored none of the \(windows.count) windows; no further faults"
                return
            }
        }
    }

    /// Waits until the running instance has emitted a random 1…`--changes-between-kills` more changes; false
    /// (and the injection stops, so the run is still verified and reported) when the load stalled.
    private func awaitChanges(from daemon: DaemonProcess, recorder: ChangeRecorder, after generation: Int) async throws -> Bool {
        let target = recorder.counts.value[unique, default: 0] + Int.random(in: 1...options.changesBetweenKills, using: &random)
        guard await recorder.wait(for: target, from: unique, within: .seconds(120)) else {
            faultsStopped = "the load stalled after fault \(generation): no \(target) changes from daemon \(unique) within 120 s; no further faults: \(daemon.tail(lines: 2))"
            return false
        }
        return true
    }

    /// SIGKILL at a random moment within the next 2 ms of load, then a new instance on the same state
    /// directory; returns the time from the kill to the name owned again.
    private func killAndRestart(_ daemon: DaemonProcess, recorder: ChangeRecorder, injectLoss: Bool) async throws -> Duration {
        let clock = ContinuousClock()
        // A kill time, not a readiness wait.
        try await Task.sleep(for: .microseconds(Int.random(in: 0...2000, using: &random)))
        let killed = clock.now
        try await daemon.kill()
        if injectLoss { dropLastSignalledChange(daemon, recorder: recorder) }
        unique = try await daemon.start()
        return clock.now - killed
    }

    /// The negative control: removes the journal's last line if it is a batch whose `Changed` the
    /// subscriber received (so it was journaled and applied), as a daemon losing it would.
    private func dropLastSignalledChange(_ daemon: DaemonProcess, recorder: ChangeRecorder) {
        let path = daemon.stateDirectory + "/journal.jsonl"
        guard let bytes = FileManager.default.contents(atPath: path), bytes.last == UInt8(ascii: "\n") else { return }
        let body = bytes.dropLast()
        guard let start = body.lastIndex(of: UInt8(ascii: "\n")).map({ $0 + 1 }),
              let line = try? JSONSerialization.jsonObject(with: Data(body[start...])) as? [String: Any],
              line["op"] as? String == "batch", let window = line["window"] as? Int, let version = line["version"] as? Int
        else { return }
        let sender = unique
        guard recorder.all.contains(where: { $0.sender == sender && $0.window == UInt64(window) && $0.version == UInt64(version) })
        else { return }
        do {
            try Data(bytes.prefix(start)).write(to: URL(fileURLWithPath: path))
            progress("inject-loss: dropped window \(window) v\(version) from the journal")
        } catch {
            progress("inject-loss: cannot rewrite \(path): \(error)")
        }
    }

    // MARK: Processes

    private func clientLogs() -> String {
        (0..<options.clients).compactMap { client in
            let text = (try? String(contentsOfFile: workspace.path("client-\(client).log"), encoding: .utf8)) ?? ""
            return text.isEmpty ? nil : "client \(client): " + text.split(separator: "\n").suffix(3).joined(separator: " | ")
        }.joined(separator: "; ")
    }

    private func executable() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    private func daemonBinary() throws -> String {
        let path = try options.daemonPath
            ?? URL(fileURLWithPath: try executable()).deletingLastPathComponent().appendingPathComponent("navsessiond").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw LoadError("no navsessiond at \(path); build it (swift build --product navsessiond) or pass --daemon PATH")
        }
        return path
    }
}
