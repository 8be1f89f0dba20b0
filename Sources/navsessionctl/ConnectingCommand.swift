import ArgumentParser
import FoundationEssentials
import DBusKit
import NavSessionClient

/// A subcommand that talks to the daemon: it declares `--bus`, `--dest` and `--timeout` as one option group
/// (`@OptionGroup var connection: ConnectionOptions`) and gets from here what they mean.
///
/// An option group costs swift-argument-parser a reflection of its type, but only on the parser's own path (help,
/// usage errors, completion): an ordinary command line is parsed by ``DirectParser``, which reflects nothing. The
/// direct parse sets the group through the parser's generic setter, whose metadata the installed binary reaches
/// through its accessor (5 k instructions; through its mangled name it was a conformance scan, 0.2 M:
/// Docs/performance.md, "navsessionctl", items 11 and 14).
protocol ConnectingCommand: SendableMetatype {
    /// `--bus`, `--dest` and `--timeout`.
    var connection: ConnectionOptions { get set }
}

/// `--bus`, `--dest` and `--timeout`: the options of every ``ConnectingCommand``.
struct ConnectionOptions: ParsableArguments {
    /// `--bus`: `session`, `system` or a D-Bus address.
    @Option(help: ConnectionOption.busHelp) var bus = ConnectionOption.defaultBus
    /// `--dest`: the daemon's bus name.
    @Option(help: ConnectionOption.destHelp) var dest = ConnectionOption.defaultDest
    /// `--timeout` as typed; ``ConnectingCommand/timeout`` is its value once
    /// ``ConnectingCommand/validateConnection()`` accepted it.
    @Option(name: .customLong("timeout"), help: ConnectionOption.timeoutHelp)
    var timeoutText = ConnectionOption.defaultTimeout

    /// The options a direct parse found (``DirectParsable``), or their defaults. A function, not an
    /// initializer: in an initializer an assignment re-creates an option's wrapper instead of setting its value.
    static func direct(_ words: DirectWords) -> ConnectionOptions {
        var options = ConnectionOptions()
        options.bus = words.option("bus") ?? ConnectionOption.defaultBus
        options.dest = words.option("dest") ?? ConnectionOption.defaultDest
        options.timeoutText = words.option("timeout") ?? ConnectionOption.defaultTimeout
        return options
    }
}

/// The help and defaults of the options every ``ConnectingCommand`` declares.
enum ConnectionOption {
    static let busHelp = ArgumentHelp("The bus: session, system, or a D-Bus address such as unix:path=/tmp/bus.")
    static let destHelp = ArgumentHelp(
        "The daemon's bus name (its application id); NAVSESSION_DEST sets the default.")
    // Read as text and converted in `validateConnection()` rather than declared `Double`: every distinct
    // option type costs three more conformance scans as the parser reflects it (Docs/performance.md,
    // "navsessionctl"), and the other options are `String`.
    static let timeoutHelp = ArgumentHelp("Seconds to wait for each reply.", valueName: "seconds")

    static let defaultBus = "session"
    static var defaultDest: String { SessionNames.environmentDestination ?? SessionNames.defaultDestination }
    static let defaultTimeout = "10"

    /// The long names of the three options, for a ``DirectShape``.
    static let names: Set<String> = ["bus", "dest", "timeout"]
}

extension ConnectingCommand where Self: ParsableArguments {
    /// A connecting command's validation when it has none of its own: its connection options. A command with
    /// checks of its own declares `validate()` and calls ``validateConnection()`` first.
    func validate() throws {
        try validateConnection()
    }
}

extension ConnectingCommand {
    /// `--bus` as typed.
    var bus: String { connection.bus }
    /// `--dest`: the daemon's bus name.
    var dest: String { connection.dest }
    /// `--timeout` as typed.
    var timeoutText: String { connection.timeoutText }

    /// Checks `--dest` and `--timeout`; a command's own `validate()` calls it first.
    func validateConnection() throws {
        guard (try? BusName(dest)) != nil else {
            throw ArgumentParser.ValidationError("'\(dest)' is not a valid bus name")
        }
        guard let seconds = Double(timeoutText), seconds > 0, seconds <= 3600 else {
            throw ArgumentParser.ValidationError(
                "--timeout must be a number of seconds between 0 and 3600, not '\(timeoutText)'")
        }
    }

    /// `--timeout` in seconds (checked by ``validateConnection()``).
    var timeout: Double { Double(timeoutText) ?? 10 }

    /// The bus to connect to.
    var selection: NavSessionClient.BusSelection {
        switch bus {
        case "session": .session
        case "system": .system
        default: .address(bus)
        }
    }

    /// Connects (taking the ``EarlyConnection`` when there is one) and returns a client for the daemon.
    func connect() async throws -> NavSessionClient {
        let timeout = Duration.milliseconds(Int64(timeout * 1000))
        if let bus = await EarlyConnection.take(for: selection) {
            return try NavSessionClient(bus: bus, applicationID: dest, timeout: timeout)
        }
        return try await NavSessionClient.connect(to: selection, applicationID: dest, timeout: timeout)
    }

    /// Connects, runs `body` with the client, and closes the connection whatever happens.
    func withClient<T: Sendable>(_ body: (NavSessionClient) async throws -> T) async throws -> T {
        let client = try await connect()
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// The window proxy for a WINDOW argument.
    func windowProxy(_ argument: WindowArgument, of client: NavSessionClient) throws -> WindowProxy {
        try client.window(argument.path.rawValue)
    }

    /// The run of a command that prints one reply: connects, makes `call`, prints `line(reply)`; every failure
    /// (of the call or of `line`) becomes the one-line error (``reportingFailures(_:)``).
    func printReply<Reply: Sendable>(
        _ call: (NavSessionClient) async throws -> Reply, as line: (Reply) throws -> String
    ) async throws {
        try await reportingFailures {
            let reply = try await withClient(call)
            StandardOutput.line(try line(reply))
        }
    }

    /// Prints a window's JSON (state or routes) indented, or on one line when `compact` (`--json`); failures
    /// become the one-line error. Shared by `state` and `routes`.
    func printJSON(
        window: WindowArgument, compact: Bool,
        _ read: @escaping @Sendable (WindowProxy) async throws -> String
    ) async throws {
        try await printReply({ client in try await read(try windowProxy(window, of: client)) }) { json in
            compact ? json : JSONText.pretty(json)
        }
    }
}
