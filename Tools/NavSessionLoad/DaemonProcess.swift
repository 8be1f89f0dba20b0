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

    /// The arguments of an instance on this bus and state directory.
    func arguments(_ extra: [String] = []) -> [String] {
        ["--bus", busAddress, "--state-dir", stateDirectory, "--log-level", "warning"] + extra
    }

    /// Starts an instance and returns its unique name once it owns the well-known name (NameOwnerChanged;
    /// no sleeping). Fails early, with the log's tail, if it exits first.
    func start(timeout: Duration = .seconds(60)) async throws -> String {
        let process = try ProcessEvents.launch(binary, arguments(), log: log, into: events)
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

    /// How a `--replace` start ended.
    enum Takeover {
        /// The new instance owns the name (`unique`) and the replaced one exited with `replacedStatus`.
        case handedOver(unique: String, replacedStatus: Int32)
        /// The new instance exited with `status` before owning the name; the old one goes on serving.
        case failed(status: Int32, log: String)
    }

    /// Starts a `navsessiond --replace` on the same state directory while this one runs, and waits until
    /// it owns the name and the replaced instance has exited.
    func replace(timeout: Duration = .seconds(60)) async throws -> Takeover {
        let old = pid
        let oldOwner = events.value.owner
        // Read while it still exists; the CPU of its final save is not counted.
        let oldTicks = CPUTime.ticks(of: old) ?? 0
        let process = try ProcessEvents.launch(binary, arguments(["--replace"]), log: log, into: events)
        let pid = process.processIdentifier
        guard let owned = await events.wait(
            within: timeout, until: { ($0.owner != "" && $0.owner != oldOwner) || $0.exited[pid] != nil })
        else {
            throw LoadError("navsessiond --replace did not own \(Self.name) within \(timeout): \(tail())")
        }
        if let status = owned.exited[pid] { return .failed(status: status, log: tail(lines: 3)) }
        self.process = process
        guard let handedOver = await events.wait(within: timeout, until: { $0.exited[old] != nil }),
              let status = handedOver.exited[old]
        else {
            throw LoadError("the replaced navsessiond (pid \(old)) did not exit within \(timeout) of the takeover: \(tail())")
        }
        retiredTicks += oldTicks
        return .handedOver(unique: owned.owner, replacedStatus: status)
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
