import DBusKit
import Foundation

/// One client process (`navsession-load worker …`): sends commands one at a time to its own window and
/// to the shared ones, records every call's outcome and latency, and writes them to its `--out` file.
struct ClientWorker {
    struct Configuration {
        var bus: String
        var client: Int
        /// Its own window (a `waiting` window).
        var ownWindow: String
        /// The shared windows: the `main` window (logged in, tabs) and a shared `waiting` window.
        var sharedMain: String
        var sharedWaiting: String
        var commands: Int
        var seed: UInt64
        var output: String
        /// Fault mode: run until `Stop` (not a command count); failed deliveries wait for the next `Go`.
        var untilStop: Bool
    }

    let configuration: Configuration
    /// How long one call may take before it counts as unanswered.
    static let callTimeout: Duration = .seconds(30)
    /// How long a client waits for the coordinator's `Go` (first start, or after a restart).
    static let goTimeout: Duration = .seconds(120)

    func run() async throws {
        let config = configuration
        let bus = try await Bus.connect(.address(config.bus))
        let control = Watched(ControlChannel.State())
        let signals = try await bus.signals(matching: try ControlChannel.rule())
        let follower = Task { await ControlChannel.follow(signals, into: control) }
        defer { follower.cancel() }
        try await ControlChannel.emit("Ready", [.int32(Int32(config.client))], on: bus)
        guard var current = await control.wait(within: Self.goTimeout, until: { $0.generation >= 0 }) else {
            throw LoadError("client \(config.client): no Go from the coordinator within \(Self.goTimeout)")
        }

        var mix = CommandMix(seed: config.seed)
        var needsCover: Set<String> = []
        var needsDismiss: Set<String> = []
        var records: [CallRecord] = []
        records.reserveCapacity(config.untilStop ? 4096 : config.commands)
        let clock = ContinuousClock()
        while true {
            let latest = control.value
            if latest.stopped || (!config.untilStop && records.count >= config.commands) { break }
            if latest.generation > current.generation { current = latest }

            let roll = mix.percent()
            let window = roll < 50 ? config.ownWindow : roll < 75 ? config.sharedMain : config.sharedWaiting
            let command: LoadCommand =
                needsDismiss.remove(window) != nil ? .dismiss
                : needsCover.contains(window) ? .apply(batchJSON: CommandMix.coverWithTabs) : mix.next()
            let start = clock.now
            let outcome = await Self.send(command, to: window, daemon: current.daemon, on: bus, faults: config.untilStop)
            let micros = UInt32(clamping: (clock.now - start).microseconds)
            records.append(
                CallRecord(
                    client: config.client, window: try Self.number(of: window), command: command,
                    generation: current.generation, outcome: outcome, micros: micros))

            switch outcome {
            case .rejected(let error) where window != config.sharedMain
                && (error.hasSuffix(".NoStack") || error.hasSuffix(".NoTabs")):
                // A dismiss took the waiting window's cover away: put it back next time.
                needsCover.insert(window)
            case .rejected(let error) where error.hasSuffix(".PresenterIsLeaf") || error.hasSuffix(".BlockedByDialog"):
                // An alert is on top: take it away next time.
                needsDismiss.insert(window)
            case .acknowledged where command == .apply(batchJSON: CommandMix.coverWithTabs):
                needsCover.remove(window)
            case .undelivered, .unknown:
                let generation = current.generation
                guard let next = await control.wait(
                    within: Self.goTimeout, until: { $0.generation > generation || $0.stopped })
                else {
                    throw LoadError("client \(config.client): the daemon went away and no Go followed within \(Self.goTimeout)")
                }
                current = next
            case .failed(let error) where error.hasPrefix("connection:"):
                throw LoadError("client \(config.client): \(error)")
            default:
                break
            }
        }
        let result = ClientResult(client: config.client, records: records)
        let data = try JSONEncoder().encode(result)
        try data.write(to: URL(fileURLWithPath: config.output))
        await bus.close()
    }

    /// One call and how it ended.
    static func send(_ command: LoadCommand, to window: String, daemon: String, on bus: Bus, faults: Bool) async -> CallOutcome {
        do {
            let call = try command.call(window: window)
            let reply = try await bus.call(
                destination: try BusName(daemon), path: call.path, interface: call.interface, member: call.member,
                arguments: call.arguments, timeout: callTimeout)
            guard let version = reply.first?.uint64 else { return .failed(error: "reply without a version: \(reply)") }
            return .acknowledged(version: version)
        } catch let error as BusError {
            let name = error.name.rawValue
            if name.hasPrefix("org.navsession.Error."), name != "org.navsession.Error.StorageFailed" {
                return .rejected(error: name)
            }
            if faults, error.name == .serviceUnknown { return .undelivered(error: name) }
            if faults, error.name == .noReply { return .unknown(error: "\(name): \(error.message)") }
            return .failed(error: "\(name): \(error.message)")
        } catch let error as ConnectionError {
            if error.code == .timedOut { return .failed(error: "no reply within \(callTimeout)") }
            return .failed(error: "connection: \(error)")
        } catch {
            return .failed(error: "\(error)")
        }
    }

    static func number(of window: String) throws -> UInt64 {
        guard let last = window.split(separator: "/").last, let number = UInt64(last) else {
            throw LoadError("'\(window)' is not a window path")
        }
        return number
    }
}

extension Duration {
    var microseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }
}
