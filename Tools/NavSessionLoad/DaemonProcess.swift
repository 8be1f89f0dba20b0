import DBusKit
import Foundation
import Glibc

/// `navsessiond` on the private bus with one state directory, started again and again on it.
final class DaemonProcess {
    static let name = "org.navsession.Demo"

    let binary: String
    let busAddress: String
    let stateDirectory: String
    let log: String
    let events: Watched<ProcessEvents>
    private(set) var process: Process?
    /// CPU ticks of instances that are gone (read just before each was killed or stopped).
    private(set) var retiredTicks = 0

    init(binary: String, busAddress: String, stateDirectory: String, log: String, events: Watched<ProcessEvents>) {
        self.binary = binary
        self.busAddress = busAddress
        self.stateDirectory = stateDirectory
        self.log = log
        self.events = events
    }

    var pid: pid_t { process?.processIdentifier ?? 0 }

    /// CPU ticks of every instance so far, the running one included.
    var totalTicks: Int { retiredTicks + (CPUTime.ticks(of: pid) ?? 0) }

    /// Starts an instance and returns its unique name once it owns the well-known name (NameOwnerChanged;
    /// no sleeping). Fails early, with the log's tail, if it exits first.
    func start(timeout: Duration = .seconds(60)) async throws -> String {
        let process = try ProcessEvents.launch(
            binary, ["--bus", busAddress, "--state-dir", stateDirectory, "--log-level", "warning"], log: log,
            into: events)
        self.process = process
        let pid = process.processIdentifier
        guard let state = await events.wait(within: timeout, until: { $0.owner != "" || $0.exited[pid] != nil }) else {
            throw LoadError("navsessiond did not own \(Self.name) within \(timeout): \(tail())")
        }
        if let status = state.exited[pid] {
            throw LoadError("navsessiond exited with status \(status) before owning \(Self.name): \(tail())")
        }
        return state.owner
    }

    /// SIGKILL, then waits until the process is reaped and the bus has released the name.
    func kill(timeout: Duration = .seconds(30)) async throws {
        let pid = pid
        retiredTicks += CPUTime.ticks(of: pid) ?? 0
        Glibc.kill(pid, SIGKILL)
        guard await events.wait(within: timeout, until: { $0.exited[pid] != nil && $0.owner == "" }) != nil else {
            throw LoadError("navsessiond (pid \(pid)) was not gone within \(timeout) of SIGKILL")
        }
    }

    /// SIGTERM (a clean shutdown: snapshot and exit 0), bounded; returns the exit status.
    func stop(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let pid = pid
        retiredTicks += CPUTime.ticks(of: pid) ?? 0
        Glibc.kill(pid, SIGTERM)
        guard let state = await events.wait(within: timeout, until: { $0.exited[pid] != nil && $0.owner == "" }),
              let status = state.exited[pid]
        else {
            Glibc.kill(pid, SIGKILL)
            throw LoadError("navsessiond (pid \(pid)) did not exit within \(timeout) of SIGTERM")
        }
        return status
    }

    /// The log's last lines, for error messages.
    func tail(lines: Int = 8) -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }
}
