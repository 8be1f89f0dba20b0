import ArgumentParser
import DBusKit
import Dispatch
import Foundation
import Logging

/// Owns `org.navsession.Demo` and serves the demo object until SIGINT/SIGTERM.
struct NavSessionDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navsessiond",
        abstract: "Example D-Bus server: owns org.navsession.Demo and exports /org/navsession/Demo.")

    @Option(help: "Which bus to use: session, system, or a D-Bus address such as unix:path=/tmp/bus.")
    var bus: String = "session"

    @Flag(help: "Start a private dbus-daemon (from dbus/test-session.conf) and serve on it.")
    var privateBus = false

    @Option(help: "Bus configuration for --private-bus.")
    var config: String = repositoryRoot.appendingPathComponent("dbus/test-session.conf").path

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Connects, exports the demo object, takes the name and serves until a signal or disconnect.
    func serve() async throws {
        let logger = Logger(label: "navsessiond")
        let stop = ShutdownSignals.install()

        var daemon: PrivateBusDaemon?
        let address: BusAddress
        if privateBus {
            let started = try PrivateBusDaemon.start(configFile: config)
            daemon = started
            address = .address(started.address)
            // Written unbuffered: stdout may be a pipe whose reader needs the address now.
            let hint = "busctl --user call org.navsession.Demo /org/navsession/Demo org.navsession.Demo1 Echo s hello"
            FileHandle.standardOutput.write(Data("DBUS_SESSION_BUS_ADDRESS=\(started.address)\n# then: \(hint)\n".utf8))
        } else {
            switch bus {
            case "session": address = .session
            case "system": address = .system
            default: address = .address(bus)
            }
        }
        defer { daemon?.stop() }

        let connection = try await Bus.connect(address)
        try await connection.export([try DemoObject.interface()], at: try DemoObject.path())
        let reply = try await connection.requestName(try BusName("org.navsession.Demo"), options: [.doNotQueue])
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            logger.error("org.navsession.Demo is already owned by another process")
            await connection.close()
            throw ExitCode.failure
        }
        let uniqueName = await connection.uniqueName?.rawValue ?? "?"
        logger.info("serving org.navsession.Demo as \(uniqueName)")

        // Stop on SIGINT/SIGTERM, or when the bus goes away.
        await withTaskGroup(of: String.self) { group in
            group.addTask {
                for await name in stop { return name }
                return "signal stream ended"
            }
            group.addTask {
                await connection.disconnected()
                return "bus disconnected"
            }
            let reason = await group.next() ?? "unknown"
            logger.info("shutting down (\(reason))")
            // Closing ends the disconnected() child; the signal child ends when its stream is cancelled.
            await connection.close()
            group.cancelAll()
        }
    }
}

/// SIGINT/SIGTERM as an async stream, delivered by Dispatch instead of an async-signal-unsafe handler.
enum ShutdownSignals {
    static func install() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
        return stream
    }

    // Sources must stay alive for the process's lifetime; only touched from `install`, once, at startup.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}
