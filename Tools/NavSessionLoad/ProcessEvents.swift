import DBusKit
import Foundation

/// What the coordinator waits on: the owners of the daemons' bus names (from NameOwnerChanged) and the
/// exits of the processes it started (from `Process.terminationHandler`).
struct ProcessEvents: Sendable {
    /// Well-known name → the unique name owning it (absent or "" when none).
    var owners: [String: String] = [:]
    /// Exit statuses of finished children, by pid.
    var exited: [Int32: Int32] = [:]
    /// Clients that announced `Ready` (subscribed to the control signals).
    var ready: Set<Int> = []

    /// The unique name owning the daemon's well-known name, "" when none.
    var owner: String { owners[DaemonProcess.name] ?? "" }

    /// Starts following NameOwnerChanged for `name` into `events`; the rule is active when this returns.
    static func followOwner(of name: String, on bus: Bus, into events: Watched<ProcessEvents>) async throws {
        let changes = try await bus.signals(
            matching: MatchRule(
                sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("NameOwnerChanged"), arguments: [0: name]))
        if try await bus.nameHasOwner(try BusName(name)) {
            throw LoadError("\(name) is already owned on a fresh private bus")
        }
        Task {
            for await change in changes {
                guard change.arguments.count == 3, let owner = change.arguments[2].string else { continue }
                events.update { $0.owners[name] = owner }
            }
        }
    }

    /// Launches a child whose exit is reported into `events`; output goes to `log` (appended).
    static func launch(
        _ executable: String, _ arguments: [String], log: String, into events: Watched<ProcessEvents>
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("DBUS_") || key == "DISPLAY" { environment[key] = nil }
        process.environment = environment
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: log) else { throw LoadError("cannot open \(log)") }
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { finished in
            let pid = finished.processIdentifier
            let status = finished.terminationStatus
            events.update { $0.exited[pid] = status }
        }
        do {
            try process.run()
        } catch {
            throw LoadError("cannot start \(executable): \(error.localizedDescription)")
        }
        try? handle.close()
        Children.shared.register(process.processIdentifier)
        return process
    }
}
