import ArgumentParser
import DBusKit
import FoundationEssentials
import NavSessionClient
import NavigationCore
import Synchronization

/// `navsessionctl wait WINDOW (--version N | --screen NAME | --routes JSON | --closed)`: returns as soon as
/// the window reaches a state, following its change stream (no polling).
struct WaitCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until a window reaches a state (for scripts and tests).",
        discussion: """
            Conditions: --version N (the version is at least N), --screen NAME (the active screen), --routes \
            JSON (GetRoutes equals JSON, compared as parsed JSON), --closed (the window is gone). --version, \
            --screen and --routes may be combined (all must hold); --closed stands alone. The current state \
            is checked first, then the state after each change, as the change signals arrive. Exits 0 as soon \
            as the condition holds; on --timeout (default 10 s, also each reply's limit) exits 1 and prints \
            the window's last state (JSON) on stdout and one line on stderr. Once subscribed (and the condition
            does not hold yet), it writes "waiting for CONDITION" to stderr: from then on no change is missed.
            --settled waits until a renderer reports that it finished animating the window's current version \
            (with --version N: version N) — Window1 ReportSettled, signal Settled; on --timeout it exits 1 \
            saying whether a renderer follows the window at all (SettledBy). With --renderer ID it waits for that \
            registered renderer (Window1 RegisterRenderer), with --all-renderers for every registered renderer: \
            each renderer's settled version is its own (the Renderers property).
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Option(help: "Wait until the window's version is at least N.")
    var version: UInt64?

    @Option(help: "Wait until the active screen is NAME.")
    var screen: String?

    @Option(help: "Wait until GetRoutes equals this JSON array (compared as parsed JSON).")
    var routes: String?

    @Flag(help: "Wait until the window is gone (dismissed or closed).")
    var closed = false

    @Flag(help: "Wait until a renderer has finished animating the current version (or --version N).")
    var settled = false

    @Option(help: "With --settled: wait for this registered renderer (an id RegisterRenderer gave).")
    var renderer: String?

    @Flag(help: "With --settled: wait for every registered renderer.")
    var allRenderers = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func validate() throws {
        try validateConnection()
        if settled {
            guard !closed, screen == nil, routes == nil else {
                throw ArgumentParser.ValidationError("--settled takes only --version (the version to wait for)")
            }
            guard renderer == nil || !allRenderers else {
                throw ArgumentParser.ValidationError("--renderer and --all-renderers exclude each other")
            }
        } else if renderer != nil || allRenderers {
            throw ArgumentParser.ValidationError("--renderer and --all-renderers go with --settled")
        } else if closed {
            guard version == nil, screen == nil, routes == nil else {
                throw ArgumentParser.ValidationError("--closed cannot be combined with other conditions")
            }
        } else if version == nil, screen == nil, routes == nil {
            throw ArgumentParser.ValidationError("give a condition: --version, --screen, --routes or --closed")
        }
        if let routes, Self.canonicalJSON(routes) == nil {
            throw ArgumentParser.ValidationError("--routes must be JSON, e.g. '[{\"style\":\"push\",\"screen\":\"a\"}]'")
        }
    }

    /// What one check of the condition saw.
    private struct Observation: Sendable {
        var snapshot: NavigationCore.WindowSnapshot
        var holds: Bool
    }

    func run() async throws {
        let deadline = Duration.milliseconds(Int64(timeout * 1000))
        let wanted = Condition(version: version, screen: screen, routes: routes.flatMap(Self.canonicalJSON))
        let description = conditionText
        if settled {
            try await waitSettled(deadline)
            return
        }
        try await reportingFailures {
            let timedOut: NavigationCore.WindowSnapshot?? = try await withClient { client in
                let proxy = try windowProxy(window, of: client)
                do throws(NavSessionError) {
                    if closed {
                        try await client.waitUntilClosed(proxy, timeout: deadline)
                    } else {
                        // The first observation comes after the subscription, so from the "waiting" line on,
                        // no change can be missed (scripts and tests act once they have read it).
                        let announced = Atomic<Bool>(false)
                        _ = try await client.wait(
                            for: proxy, timeout: deadline,
                            observing: { snapshot in
                                let observation = try await wanted.observe(snapshot, proxy)
                                if !observation.holds, !announced.exchange(true, ordering: .relaxed) {
                                    StandardError.write("waiting for \(description)\n")
                                }
                                return observation
                            },
                            until: { $0.holds })
                    }
                    return Optional<Optional<NavigationCore.WindowSnapshot>>.none
                } catch {
                    guard case .waitTimedOut(let last, _) = error else { throw error }
                    return .some(last)
                }
            }
            guard case .some(let last) = timedOut else { return }
            if let last, let encoded = try? JSONEncoder().encode(last) {
                let text = String(decoding: encoded, as: UTF8.self)
                StandardOutput.line(json ? text : JSONText.pretty(text))
            }
            CommandFailure.printLine(
                "timed out after \(timeout) s waiting for \(description)"
                    + (last.map { " (the window is at version \($0.version))" } ?? ""))
            throw ExitCode.failure
        }
    }

    /// `--settled`: waits for the `Settled` signal of the version; prints the settled version.
    private func waitSettled(_ deadline: Duration) async throws {
        if renderer != nil || allRenderers {
            try await printReply({ client in
                try await client.waitRenderersSettled(
                    try windowProxy(window, of: client), renderer: renderer, version: version, timeout: deadline)
            }) { reached in String(reached) }
            return
        }
        try await printReply({ client in
            try await client.waitSettled(try windowProxy(window, of: client), version: version, timeout: deadline)
        }) { reached in String(reached) }
    }

    /// The condition as text, for the timeout line.
    private var conditionText: String {
        if closed { return "the window to close" }
        var parts: [String] = []
        if let version { parts.append("version >= \(version)") }
        if let screen { parts.append("screen \(screen)") }
        if let routes { parts.append("routes \(routes)") }
        return parts.joined(separator: " and ")
    }

    /// JSON re-serialised with sorted keys, so equal documents compare equal as text; `nil` when not JSON.
    static func canonicalJSON(_ text: String) -> String? {
        JSONValue(parsing: text)?.canonicalText
    }

    /// The parts of the condition that were given; each is checked against the daemon after every change.
    private struct Condition: Sendable {
        let version: UInt64?
        let screen: String?
        let routes: String?

        func observe(_ snapshot: NavigationCore.WindowSnapshot, _ window: WindowProxy) async throws -> Observation {
            var holds = true
            if let version {
                holds = holds && UInt64(clamping: snapshot.version) >= version
            }
            if let screen {
                let active = try await window.activeScreen
                holds = holds && active == screen
            }
            if let routes {
                let current = try await window.getRoutes()
                holds = holds && WaitCommand.canonicalJSON(current) == routes
            }
            return Observation(snapshot: snapshot, holds: holds)
        }
    }
}

extension WaitCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .option("version") { $0.version = $1 },
        .option("screen") { $0.screen = $1 }, .option("routes") { $0.routes = $1 },
        .flag("closed") { $0.closed = $1 }, .flag("settled") { $0.settled = $1 },
        .option("renderer") { $0.renderer = $1 }, .flag("all-renderers") { $0.allRenderers = $1 },
        .positional { $0.window = $1 })
}
