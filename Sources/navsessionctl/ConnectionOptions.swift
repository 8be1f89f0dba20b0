import ArgumentParser
import DBusKit

/// Options shared by every subcommand that talks to the daemon.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The bus: session, system, or a D-Bus address such as unix:path=/tmp/bus.")
    var bus: String = "session"

    @Option(help: "The daemon's bus name (its application id).")
    var dest: String = SessionNames.defaultDestination

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

    /// The address to connect to.
    var address: BusAddress {
        switch bus {
        case "session": .session
        case "system": .system
        default: .address(bus)
        }
    }

    /// Connects and returns a client for the daemon.
    func connect() async throws -> SessionClient {
        let destination = try BusName(dest)
        let connection = try await Bus.connect(address)
        return SessionClient(bus: connection, destination: destination, timeout: .milliseconds(Int64(timeout * 1000)))
    }
}

extension ConnectionOptions {
    /// Calls a Window1 getter that returns JSON text and prints it indented, or on one line with `--json`;
    /// failures become the one-line error. Shared by `state` and `routes`.
    func printJSON(of member: String, window: WindowArgument, output: OutputOptions) async throws {
        try await reportingFailures {
            let json = try await withClient { try await $0.stringResult(window.path, member) }
            StandardOutput.line(output.json ? json : JSONText.pretty(json))
        }
    }
}
