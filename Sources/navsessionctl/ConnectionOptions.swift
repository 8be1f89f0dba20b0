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

    @Option(help: "Seconds to wait for each reply.")
    var timeout: Double = 10

    func validate() throws {
        guard (try? BusName(dest)) != nil else {
            throw ArgumentParser.ValidationError("'\(dest)' is not a valid bus name")
        }
        guard timeout > 0, timeout <= 3600 else {
            throw ArgumentParser.ValidationError("--timeout must be between 0 and 3600 seconds")
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
        try await NavSessionClient.connect(
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
