import ArgumentParser
import FoundationEssentials
import DBusKit
import NavSessionClient

/// Options shared by every subcommand that talks to the daemon.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The bus: session, system, or a D-Bus address such as unix:path=/tmp/bus.")
    var bus: String = "session"

    @Option(help: "The daemon's bus name (its application id); NAVSESSION_DEST sets the default.")
    var dest: String = SessionNames.environmentDestination ?? SessionNames.defaultDestination

    // Read as text and converted here rather than declared `Double`: every distinct option type costs a
    // one-shot process three of the Swift runtime's conformance scans as ArgumentParser reflects it (≈ 0.1 ms;
    // Docs/performance.md, "navsessionctl"), and the other two options are already `String`.
    @Option(name: .customLong("timeout"), help: ArgumentHelp("Seconds to wait for each reply.", valueName: "seconds"))
    var timeoutText: String = "10"

    /// `--timeout` in seconds (checked by ``validate()``).
    var timeout: Double { Double(timeoutText) ?? 10 }

    func validate() throws {
        guard (try? BusName(dest)) != nil else {
            throw ArgumentParser.ValidationError("'\(dest)' is not a valid bus name")
        }
        guard let seconds = Double(timeoutText), seconds > 0, seconds <= 3600 else {
            throw ArgumentParser.ValidationError(
                "--timeout must be a number of seconds between 0 and 3600, not '\(timeoutText)'")
        }
    }

    /// The bus to connect to.
    var selection: NavSessionClient.BusSelection {
        switch bus {
        case "session": .session
        case "system": .system
        default: .address(bus)
        }
    }

    /// Connects and returns a client for the daemon.
    func connect() async throws -> NavSessionClient {
        if let bus = await EarlyConnection.take(for: selection) {
            return try NavSessionClient(bus: bus, applicationID: dest, timeout: .milliseconds(Int64(timeout * 1000)))
        }
        return try await NavSessionClient.connect(
            to: selection, applicationID: dest, timeout: .milliseconds(Int64(timeout * 1000)))
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
    func window(_ argument: WindowArgument, of client: NavSessionClient) throws -> WindowProxy {
        try client.window(argument.path.rawValue)
    }
}

extension ConnectionOptions {
    /// Prints a window's JSON (state or routes) indented, or on one line when `compact` (`--json`); failures
    /// become the one-line error. Shared by `state` and `routes`.
    func printJSON(
        window: WindowArgument, compact: Bool,
        _ read: @escaping @Sendable (WindowProxy) async throws -> String
    ) async throws {
        try await reportingFailures {
            let json = try await withClient { client in try await read(try self.window(window, of: client)) }
            StandardOutput.line(compact ? json : JSONText.pretty(json))
        }
    }
}
