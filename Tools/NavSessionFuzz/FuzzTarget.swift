import DBusKit
import DBusTestSupport
import Foundation
import Glibc

/// The bus and the daemon under test: started by the fuzzer (a private dbus-daemon from the project's
/// dbus/test-session.conf and a `navsessiond` with a throwaway state directory), or attached to.
final class FuzzTarget {
    let address: String
    let name: BusName
    private(set) var pid: Int32
    private let bus: PrivateBusDaemon?
    private let daemonBinary: URL?
    private let workDirectory: URL?
    private var process: Process?

    var launched: Bool { bus != nil }
    var stateDirectory: URL? { workDirectory?.appendingPathComponent("state") }
    var stderrFile: URL? { workDirectory?.appendingPathComponent("navsessiond.stderr") }

    /// Attaches to a running bus and daemon (`--bus ADDRESS --name NAME --pid PID`).
    init(attachingTo address: String, name: BusName, pid: Int32) {
        self.address = address
        self.name = name
        self.pid = pid
        bus = nil
        daemonBinary = nil
        workDirectory = nil
    }

    /// Starts a private bus from `configFile`; the daemon starts with ``startDaemon(waitingOn:timeout:)``.
    init(configFile: String, daemon: URL, name: BusName) throws {
        let bus = try PrivateBusDaemon.start(configFile: configFile)
        self.bus = bus
        address = bus.address
        self.name = name
        pid = 0
        daemonBinary = daemon
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-fuzz-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("state"), withIntermediateDirectories: true)
        workDirectory = directory
    }

    /// Launches `navsessiond --bus ADDRESS --state-dir DIR --log-level warning` (the same state directory on
    /// a restart) and waits, on `client`, until it owns the name: `NameOwnerChanged`, or `NameHasOwner` when
    /// it was quicker. Returns the daemon's unique name.
    func startDaemon(waitingOn client: Bus, timeout: Duration) async throws -> String {
        guard let daemonBinary, let stateDirectory, let stderrFile else {
            throw FuzzSetupError("an attached daemon cannot be (re)started")
        }
        let owners = try await client.signals(
            matching: MatchRule(
                sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("NameOwnerChanged"), arguments: [0: name.rawValue]))
        let process = Process()
        process.executableURL = daemonBinary
        process.arguments = ["--bus", address, "--state-dir", stateDirectory.path, "--log-level", "warning"]
        var environment: [String: String] = [:]
        for entry in PrivateBusDaemon.cleanEnvironment() {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        process.environment = environment
        if !FileManager.default.fileExists(atPath: stderrFile.path) {
            _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        }
        let errors = try FileHandle(forWritingTo: stderrFile)
        errors.seekToEndOfFile()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? errors.close()
        self.process = process
        pid = process.processIdentifier
        if try await !client.nameHasOwner(name) {
            let acquired = await owners.first(within: timeout) { signal in
                signal.arguments.count == 3 && signal.arguments[2].string != ""
            }
            guard acquired != nil else {
                throw FuzzSetupError("\(daemonBinary.path) did not take \(name) within \(timeout)\(stderrTail())")
            }
        }
        let reply = try await client.call(
            destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
            member: try MemberName("GetNameOwner"), arguments: [.string(name.rawValue)])
        guard let owner = reply.first?.string else { throw FuzzSetupError("GetNameOwner gave no owner") }
        return owner
    }

    /// Moves the state directory aside (kept for inspection as `state-N`) so the next start begins empty.
    /// Returns the path it was moved to.
    func setStateAside() throws -> String {
        guard let stateDirectory, let workDirectory else { throw FuzzSetupError("an attached daemon's state is not ours") }
        var index = 1
        while FileManager.default.fileExists(atPath: workDirectory.appendingPathComponent("state-\(index)").path) { index += 1 }
        let aside = workDirectory.appendingPathComponent("state-\(index)")
        try FileManager.default.moveItem(at: stateDirectory, to: aside)
        try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        return aside.path
    }

    /// The daemon's unique name, for an attached daemon.
    func currentOwner(on client: Bus) async throws -> String {
        let reply = try await client.call(
            destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
            member: try MemberName("GetNameOwner"), arguments: [.string(name.rawValue)])
        guard let owner = reply.first?.string else { throw FuzzSetupError("\(name) has no owner") }
        return owner
    }

    /// How the launched daemon ended, when it has.
    var exitDescription: String? {
        guard let process, !process.isRunning else { return nil }
        let reason = process.terminationReason == .uncaughtSignal ? "killed by signal" : "exited with status"
        return "\(reason) \(process.terminationStatus)"
    }

    /// Stops the launched daemon (SIGTERM, then SIGKILL after `grace`).
    func stopDaemon(grace: Duration = .seconds(10)) async {
        guard let process, process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + grace
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            // Not waitUntilExit: it would hold a thread of the cooperative pool until the kernel reaps the child.
            while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// Stops the daemon and the bus, and removes the state directory unless `keepFiles`.
    func shutdown(keepFiles: Bool) async {
        guard launched else { return }
        await stopDaemon()
        bus?.stop()
        if !keepFiles, let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    /// The last lines the daemon wrote to stderr, indented, for reports ("" when there are none).
    func stderrTail(lines: Int = 20) -> String {
        guard let stderrFile, let text = try? String(contentsOf: stderrFile, encoding: .utf8), !text.isEmpty else { return "" }
        let tail = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
        return "\n  navsessiond stderr (last lines):\n" + tail.map { "    " + $0 }.joined(separator: "\n")
    }
}

/// The fuzzer could not set up (no bus, no daemon, unreadable docs): exit status 2.
struct FuzzSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
