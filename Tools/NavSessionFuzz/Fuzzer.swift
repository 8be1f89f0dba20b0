import DBusKit
import Foundation
import Glibc

/// The run: sends every call, checks the reply and the daemon's health after each, reports failures.
final class Fuzzer {
    let options: FuzzOptions
    let target: FuzzTarget
    private let catalog: ErrorCatalog
    private let generator: CallGenerator
    var client: Bus
    private var watch: NameWatch
    private var owner: String
    private var probe: ProcessProbe
    var statistics = FuzzStatistics()
    private var recent: [(number: Int, call: FuzzCall)] = []
    private var lastDescriptors = -1
    /// Calls since the daemon was last restarted (nil: never restarted).
    private var callsSinceRestart: Int?
    private var restartedFresh = false
    /// The VmRSS at which the watchdog stopped the daemon during the last call.
    private var killedAt: Int?
    private var memoryLimit: Int
    private var descriptorLimit: Int
    /// `--misbehaving-provider`: the guard provider, and the connection that owns marks (nil while away).
    let provider: MisbehavingProvider?
    var marks: Bus?

    init(
        options: FuzzOptions, target: FuzzTarget, catalog: ErrorCatalog, generator: CallGenerator, client: Bus,
        watch: NameWatch, owner: String, provider: MisbehavingProvider? = nil
    ) {
        self.provider = provider
        self.options = options
        self.target = target
        self.catalog = catalog
        self.generator = generator
        self.client = client
        self.watch = watch
        self.owner = owner
        probe = ProcessProbe(pid: target.pid)
        memoryLimit = options.maximumResidentBytes
        descriptorLimit = options.maximumDescriptors
    }

    /// Runs every call (or until the first failure without `--keep-going`); returns the statistics.
    func run() async -> FuzzStatistics {
        let started = ContinuousClock.now
        for number in stride(from: 1, through: options.calls, by: 1) {
            let made = ContinuousClock.now
            let call = generator.next()
            let sent = ContinuousClock.now
            statistics.generationSeconds += (sent - made) / .seconds(1)
            let result = await send(call)
            statistics.timed((ContinuousClock.now - sent) / .seconds(1), number: number, call: call)
            statistics.record(result, descriptors: call.descriptorCount)
            generator.observe(call, result)
            if call.member.rawValue == "GetState", case .reply = result {
                statistics.deepestWindow = max(statistics.deepestWindow, generator.model.models(in: call.path).count)
            }
            callsSinceRestart = callsSinceRestart.map { $0 + 1 }
            recent.append((number, call))
            if recent.count > 4 { recent.removeFirst() }
            var failures = check(call, result)
            failures += await health(number, call: call)
            if !failures.isEmpty {
                report(failures, at: number, call: call, result: result)
                guard options.keepGoing, await recover(from: failures) else { break }
            }
            if options.progressEvery > 0, number % options.progressEvery == 0 {
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                FileHandle.standardError.write(Data(
                    "progress: \(number) calls, \(statistics.failures) failures, daemon RSS \(statistics.maximumResidentBytes / 1_048_576) MiB max, fds \(statistics.maximumDescriptors) max, \(String(format: "%.0f", seconds)) s\n".utf8))
            }
        }
        if provider != nil {
            let failures = await endCheck()
            if !failures.isEmpty {
                let call = FuzzCall(origin: "end check", path: .root, interface: nil, member: .fuzzFallback, arguments: [])
                report(failures, at: options.calls + 1, call: call, result: .reply([]))
            }
            if let counts = provider?.counts { statistics.provider = counts }
        }
        return statistics
    }

    // MARK: Sending

    private func send(_ call: FuzzCall) async -> CallResult {
        if call.vanishes {
            let vanishing: Bus
            do {
                vanishing = try await Bus.connect(.address(target.address))
            } catch {
                return classify(error)
            }
            defer { Task { await vanishing.close() } }
            let unique = await vanishing.uniqueName
            do {
                try await vanishing.abandonCall(
                    destination: target.name, path: call.path, interface: call.interface, member: call.member,
                    arguments: call.arguments)
                // The bus handles one connection's messages in order: once it answers GetId, it has routed the
                // abandoned call to the daemon, ahead of the next call, so runs replay in the same order.
                _ = try? await vanishing.call(
                    destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                    member: try MemberName("GetId"), timeout: options.timeout)
                await vanishing.close()
                // Once the bus reports the client gone, the daemon has been told too (before our next call), so
                // windows tied to the client (SetCloseOnExit) close at the same point of every replay.
                if let unique { await vanished(unique) }
                return .abandoned
            } catch {
                return classify(error)
            }
        }
        // While the call runs, a daemon that balloons past the kill limit is stopped before it takes the
        // machine down (a started daemon is killed; an attached one is only reported).
        let watchdog = Task { [probe, limit = options.killResidentBytes, launched = target.launched] () -> Int in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
                let resident = probe.sample(descriptors: false).residentBytes
                if resident > limit {
                    if launched { kill(probe.pid, SIGKILL) }
                    return resident
                }
            }
            return 0
        }
        let sender: Bus
        switch await bus(for: call) {
        case .success(let bus): sender = bus
        case .failure(let error):
            watchdog.cancel()
            _ = await watchdog.value
            return classify(error)
        }
        let result: CallResult
        do {
            result = .reply(try await sender.call(
                destination: target.name, path: call.path, interface: call.interface, member: call.member,
                arguments: call.arguments, timeout: options.timeout))
        } catch {
            result = classify(error)
        }
        watchdog.cancel()
        let resident = await watchdog.value
        if resident > 0 { killedAt = resident }
        if call.leavesAfter { await leave(call.connection) }
        return result
    }

    /// Returns once the bus has dropped `name`, or after the reply timeout.
    func vanished(_ name: BusName) async {
        let client = self.client
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await client.waitUntilNameVanishes(name) }
            group.addTask { [timeout = options.timeout] in try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func classify(_ error: any Error) -> CallResult {
        switch error {
        case let error as BusError: return .error(name: error.name.rawValue, message: error.message)
        case let error as ConnectionError where error.code == .timedOut: return .timedOut
        case let error as ConnectionError where error.code == .disconnected || error.code == .connectFailed:
            return .disconnected(error.description)
        default: return .rejectedLocally(String(describing: error))
        }
    }

    // MARK: Checking

    /// Whether the reply keeps the documented promises.
    private func check(_ call: FuzzCall, _ result: CallResult) -> [FuzzFailure] {
        switch result {
        case .reply(let values):
            if let expected = call.expectedOutputs, values.map(\.type) != expected {
                let got = values.map(\.type.description).joined()
                let text = "\(call.member.rawValue): expected '\(expected.map(\.description).joined())', got '\(got)'"
                return [FuzzFailure(kind: .wrongReply, detail: text, signature: text)]
            }
        case .error(let name, let message):
            let text = "\(name): \(ValueDump.string(message))"
            let group = "\(call.member.rawValue) → \(name): \(Self.shape(of: message))"
            if name == ErrorCatalog.failed { return [FuzzFailure(kind: .failedError, detail: text, signature: group)] }
            let busNames = ["NoReply", "ServiceUnknown", "NameHasNoOwner", "Disconnected"].map { ErrorCatalog.standardPrefix + $0 }
            if busNames.contains(name) { return [FuzzFailure(kind: .daemonGone, detail: "the bus answered " + text, signature: group)] }
            if !catalog.allows(name) { return [FuzzFailure(kind: .undocumentedError, detail: text, signature: name)] }
        case .timedOut:
            return [FuzzFailure(kind: .missingReply, detail: "no reply within \(options.timeout)")]
        case .disconnected(let message):
            return [FuzzFailure(
                kind: .fuzzerDisconnected, detail: "the fuzzer's own connection dropped: \(message)",
                signature: "\(call.member.rawValue) '\(call.signature)'")]
        case .rejectedLocally(let message):
            FileHandle.standardError.write(Data("navsession-fuzz: call not sent (a fuzzer bug): \(message)\n".utf8))
        case .abandoned:
            break
        }
        return []
    }

    /// Whether the daemon still owns its name, lives, and stays under the memory and descriptor bounds.
    private func health(_ number: Int, call: FuzzCall) async -> [FuzzFailure] {
        if let resident = killedAt {
            killedAt = nil
            let action = target.launched ? "killed navsessiond" : "left the attached daemon alone"
            return [FuzzFailure(
                kind: .memory, detail: "VmRSS reached \(resident >> 20) MiB during the call (over --kill-rss-mib); the fuzzer \(action)")]
        }
        if let loss = watch.loss(of: owner) {
            let exit = target.exitDescription.map { "; navsessiond \($0)" } ?? ""
            return [FuzzFailure(kind: .nameLost, detail: "\(target.name) went from '\(loss.oldOwner)' to '\(loss.newOwner)'\(exit)")]
        }
        guard kill(probe.pid, 0) == 0 || errno == EPERM else {
            return [FuzzFailure(kind: .daemonGone, detail: "pid \(probe.pid) is gone" + (target.exitDescription.map { ": \($0)" } ?? ""))]
        }
        guard number % max(options.sampleEvery, 1) == 0 else { return [] }
        let sample = probe.sample()
        statistics.sample(sample)
        if lastDescriptors >= 0, sample.descriptors > lastDescriptors {
            statistics.descriptorGrowth["\(call.member.rawValue) '\(call.signature)'", default: 0] += sample.descriptors - lastDescriptors
        }
        lastDescriptors = sample.descriptors
        var failures: [FuzzFailure] = []
        if !sample.alive {
            failures.append(FuzzFailure(kind: .daemonGone, detail: "pid \(probe.pid) is not running" + (target.exitDescription.map { ": \($0)" } ?? "")))
        }
        if sample.residentBytes > memoryLimit {
            failures.append(FuzzFailure(kind: .memory, detail: "VmRSS \(sample.residentBytes / 1024) KiB > \(memoryLimit / 1024) KiB"))
        }
        if sample.descriptors > descriptorLimit {
            let open = probe.descriptorTargets(limit: 12).joined(separator: ", ")
            failures.append(FuzzFailure(kind: .descriptors, detail: "\(sample.descriptors) open > \(descriptorLimit) (\(open), …)"))
        }
        return failures
    }

    // MARK: Reporting and recovery

    func report(_ failures: [FuzzFailure], at number: Int, call: FuzzCall, result: CallResult) {
        statistics.failures += 1
        for failure in failures { statistics.classify(failure, at: number, call: call) }
        if failures.contains(where: { $0.kind == .daemonGone || $0.kind == .nameLost }) { statistics.daemonDisconnects += 1 }
        guard statistics.failures <= options.printedFailures else { return }
        var lines = ["FAILURE #\(statistics.failures) at call \(number) (seed=\(options.seed)): " + failures.map(\.description).joined(separator: "; ")]
        lines.append("  call \(number): \(call.summary)")
        lines.append("  result: \(Self.describe(result))")
        let earlier = recent.dropLast()
        if !earlier.isEmpty {
            lines.append("  calls before it:")
            for entry in earlier.reversed() { lines.append("    \(entry.number): \(entry.call.summary)") }
        }
        let flags = ([ "--seed", String(options.seed), "--calls", String(number)] + options.generationFlags).joined(separator: " ")
        lines.append("  reproduce: navsession-fuzz \(flags)")
        if failures.contains(where: { [.daemonGone, .nameLost, .missingReply].contains($0.kind) }) {
            lines.append(target.stderrTail().trimmingCharacters(in: .newlines))
        }
        print(lines.filter { !$0.isEmpty }.joined(separator: "\n"))
        fflush(nil)
    }

    /// A message with its particulars blanked: digits and quoted text, cut to 60 characters.
    static func shape(of message: String) -> String {
        var out = ""
        var quoted = false
        for character in message.prefix(200) {
            if character == "'" || character == "\"" {
                quoted.toggle()
                out.append(character)
            } else if !quoted {
                out.append(character.isNumber ? "#" : character)
            }
        }
        return String(out.prefix(60))
    }

    static func describe(_ result: CallResult) -> String {
        switch result {
        case .reply(let values): "reply (" + values.map { ValueDump.text($0) }.joined(separator: ", ") + ")"
        case .error(let name, let message): "error \(name): \(ValueDump.string(message, limit: 400))"
        case .timedOut: "no reply"
        case .disconnected(let message): "disconnected: \(message)"
        case .rejectedLocally(let message): "not sent: \(message)"
        case .abandoned: "not awaited (the client vanished)"
        }
    }

    /// Gets back to a healthy daemon and connection after failures; false when the run cannot go on.
    private func recover(from failures: [FuzzFailure]) async -> Bool {
        let kinds = Set(failures.map(\.kind))
        let connected = await client.isConnected
        if kinds.contains(.fuzzerDisconnected) || !connected {
            do {
                client = try await Bus.connect(.address(target.address))
                watch = try await NameWatch(bus: client, name: target.name)
            } catch {
                print("navsession-fuzz: cannot reconnect to the bus: \(error)")
                return false
            }
        }
        var needsRestart = !kinds.isDisjoint(with: [.daemonGone, .nameLost, .memory, .descriptors])
        if kinds.contains(.missingReply) {
            needsRestart = await !answersPing()
        }
        if kinds.contains(.memory) && !target.launched { memoryLimit = .max }
        if kinds.contains(.descriptors) && !target.launched { descriptorLimit = .max }
        guard needsRestart else { return true }
        guard target.launched else {
            // An attached daemon cannot be restarted: go on only if it still serves.
            return kinds.isDisjoint(with: [.daemonGone, .nameLost, .missingReply])
        }
        await target.stopDaemon()
        // Failing again right after a restart means the restored state itself is the trouble: start over from
        // an empty state (the old one is kept), once; failing right after that ends the run.
        let failsAtOnce = (callsSinceRestart ?? .max) <= 2
        if failsAtOnce && restartedFresh {
            print("navsession-fuzz: navsessiond fails right after starting from an empty state; stopping")
            return false
        }
        restartedFresh = false
        if failsAtOnce, await !restart(fresh: true) { return false }
        if !failsAtOnce, await !restart(fresh: false), await !restart(fresh: true) { return false }
        return true
    }

    /// Starts the daemon again, from its state directory or (`fresh`) from an empty one.
    private func restart(fresh: Bool) async -> Bool {
        do {
            if fresh {
                await target.stopDaemon()
                let aside = try target.setStateAside()
                print("navsession-fuzz: restarting navsessiond from an empty state; its previous state is kept in \(aside)")
                restartedFresh = true
            }
            owner = try await target.startDaemon(waitingOn: client, timeout: .seconds(30))
            probe = ProcessProbe(pid: target.pid)
            lastDescriptors = -1
            callsSinceRestart = 0
            return true
        } catch {
            print("navsession-fuzz: cannot restart navsessiond\(fresh ? "" : " from its state directory"): \(error)")
            return false
        }
    }

    private func answersPing() async -> Bool {
        guard let peer = try? InterfaceName("org.freedesktop.DBus.Peer"), let ping = try? MemberName("Ping"),
              let path = try? ObjectPath("/org/navsession/Session1")
        else { return false }
        return (try? await client.call(destination: target.name, path: path, interface: peer, member: ping, timeout: options.timeout)) != nil
    }
}
