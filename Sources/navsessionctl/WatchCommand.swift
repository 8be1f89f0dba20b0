import ArgumentParser
import DBusKit
import FoundationEssentials
import NavSessionClient
import NavigationCore
import ProcessSupport

/// `navsessionctl watch [WINDOW]`: follows the daemon's windows live, one line per event.
struct WatchCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow window changes live, one line per event.",
        discussion: """
            Reports Changed, Message, OpenExternalURL, Effect, Settled and Announcement of every window (or only WINDOW), and \
            WindowAdded/WindowRemoved from the session's ObjectManager. When a Changed's previous version is \
            past the last version seen, a 'Missed' line says how many changes were lost (run 'state' to \
            resync). Once subscribed, 'watching …' is written to stderr. Stops after --count events, on \
            SIGINT/SIGTERM (exit 0), or when the daemon leaves the bus (exit 1). \
            With --model N (and WINDOW), follows that one model instead (Window1 FollowModel): one \
            'ModelChanged' line per change of it — steps, params, title, transaction — and nothing for other \
            models; it stops after the model's end (0 follows the active model now).
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Option(help: "Stop after this many events (Missed lines are not counted).")
    var count: Int?

    @Argument(help: "Only this window (a number or object path).")
    var window: WindowArgument?

    @Option(help: "Follow only this model of WINDOW (FollowModel); 0 = the active model.")
    var model: UInt64?

    func validate() throws {
        try validateConnection()
        if let count, count < 1 { throw ArgumentParser.ValidationError("--count must be at least 1") }
        if model != nil, window == nil { throw ArgumentParser.ValidationError("--model needs a WINDOW") }
    }

    /// Why watching ended.
    private enum Outcome: Sendable {
        case done
        case daemonLeft
    }

    func run() async throws {
        try await reportingFailures {
            let outcome = try await withClient { client in
                if let model { return try await watchModel(model, client) }
                return try await watch(client)
            }
            if outcome == .daemonLeft {
                throw DaemonLeftError(name: dest)
            }
        }
    }

    /// Subscribes, seeds the versions, then prints events until done, interrupted or the daemon leaves.
    private func watch(_ client: NavSessionClient) async throws -> Outcome {
        // The daemon instance's signals, in order; the sequence ends when that instance leaves the bus.
        let events = try await client.sessionSignals()
        var seeded = VersionTracker()
        for window in try await windowsToSeed(client) {
            seeded.seed(window.path, version: try await window.version)
        }
        // Installed before "watching" is announced, so a SIGINT sent on seeing that line is never missed.
        let interrupts = TerminationSignals.install()
        StandardError.write("watching \(dest): \(window.map { $0.path.rawValue } ?? "all windows")\n")

        let json = json
        let limit = count
        let only = window?.path.rawValue
        let initial = seeded
        return await Self.untilInterrupted(by: interrupts) {
            var tracker = initial
            var printed = 0
            for await signal in events {
                guard let event = WatchEvent(signal), only == nil || event.window == only else { continue }
                switch event {
                case .changed(let window, let version, let previous, _, _, _, _, _):
                    if let missed = tracker.observe(window, version: version, previous: previous) {
                        StandardOutput.line(json ? missed.json : missed.text)
                    }
                case .windowAdded(let window, let version):
                    if let version { tracker.seed(window, version: version) }
                case .windowRemoved(let window):
                    tracker.forget(window)
                default:
                    break
                }
                StandardOutput.line(json ? event.json : event.text)
                printed += 1
                if let limit, printed >= limit { return .done }
            }
            return .daemonLeft
        }
    }

    /// `--model N`: the followed model's changes only.
    private func watchModel(_ model: UInt64, _ client: NavSessionClient) async throws -> Outcome {
        guard let window else { return .done }
        let proxy = try windowProxy(window, of: client)
        let changes = try await client.follow(ModelID(rawValue: Int(clamping: model)), in: proxy)
        let interrupts = TerminationSignals.install()
        StandardError.write("watching \(dest): model \(model) of \(proxy.path)\n")
        let json = json
        let limit = count
        let number = SessionNames.shortName(of: proxy.path)
        let path = proxy.path
        return await Self.untilInterrupted(by: interrupts) {
            var printed = 0
            for await change in changes {
                if json {
                    StandardOutput.line(
                        #"{"event":"ModelChanged","window":"\#(number)","path":"\#(path)","model":\#(change.model.rawValue),"#
                            + #""version":\#(change.version),"change":\#(change.changeJSON)}"#)
                } else {
                    StandardOutput.line(
                        "\(number) ModelChanged model=\(change.model.rawValue) version=\(change.version) change=\(change.changeJSON)")
                }
                printed += 1
                if let limit, printed >= limit { return .done }
            }
            return .done
        }
    }

    /// Runs `printing` until it returns or a SIGINT/SIGTERM arrives on `interrupts` (``Outcome/done``); the
    /// other is cancelled. Both `watch` forms end this way.
    private static func untilInterrupted(
        by interrupts: AsyncStream<Int32>, _ printing: @escaping @Sendable () async -> Outcome
    ) async -> Outcome {
        await withTaskGroup(of: Outcome.self) { group in
            group.addTask { await printing() }
            group.addTask {
                for await _ in interrupts { return .done }
                return .done
            }
            let outcome = await group.next() ?? .done
            group.cancelAll()
            return outcome
        }
    }

    /// The windows whose current version starts the gap detection.
    private func windowsToSeed(_ client: NavSessionClient) async throws -> [WindowProxy] {
        if let window { return [try windowProxy(window, of: client)] }
        return try await client.session.listWindows()
    }
}

/// The daemon released its name (or exited) while `watch` ran.
struct DaemonLeftError: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) left the bus" }
}

extension WatchCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .option("count") { $0.count = $1 },
        .optional { $0.window = $1 }, .option("model") { $0.model = $1 })
}
