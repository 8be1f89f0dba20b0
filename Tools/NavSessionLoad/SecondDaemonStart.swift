import Foundation
import Glibc

/// How a second `navsessiond` started on the running daemon's state directory ended.
struct SecondDaemonStart: Sendable {
    /// The bus name it was started for: the running daemon's, or ``otherName`` (`--name`).
    var busName: String
    /// The unique name it served under, when it owned its name instead of refusing to start.
    var served: String?
    /// Its exit status (after the coordinator's SIGTERM when it served).
    var status: Int32
    /// The last line it logged: its reason for refusing, or its last word.
    var message: String

    /// The expected end: it never served and exited non-zero.
    var refused: Bool { served == nil && status != 0 }

    /// The bus name of the second daemon started with `--name`.
    static let otherName = "org.navsession.Demo.Second"

    /// Starts it beside `daemon` and waits (bounded) until it exits or owns its name. One that serves is
    /// stopped with SIGTERM, which saves its state as a supervisor stopping it would.
    static func run(
        sameName: Bool, beside daemon: DaemonProcess, mainOwner: String, log: String, timeout: Duration = .seconds(30)
    ) async throws -> SecondDaemonStart {
        let busName = sameName ? DaemonProcess.name : otherName
        let process = try ProcessEvents.launch(
            daemon.binary, daemon.arguments(sameName ? [] : ["--name", otherName, "--demo"]), log: log, into: daemon.events)
        let pid = process.processIdentifier
        @Sendable func served(_ state: ProcessEvents) -> String? {
            let owner = state.owners[busName] ?? ""
            return owner == "" || owner == mainOwner ? nil : owner
        }
        guard let ended = await daemon.events.wait(
            within: timeout, until: { $0.exited[pid] != nil || served($0) != nil })
        else {
            Glibc.kill(pid, SIGKILL)
            throw LoadError("the second navsessiond (pid \(pid), \(busName)) neither exited nor owned its name within \(timeout): \(lastLine(of: log))")
        }
        let unique = served(ended)
        var status = ended.exited[pid]
        if status == nil {
            Glibc.kill(pid, SIGTERM)
            status = await daemon.events.wait(within: .seconds(20), until: { $0.exited[pid] != nil })?.exited[pid]
            if status == nil {
                Glibc.kill(pid, SIGKILL)
                throw LoadError("the second navsessiond (pid \(pid), \(busName)) did not exit within 20 s of SIGTERM")
            }
        }
        if unique != nil {
            // So the next start does not mistake this one's name for its own.
            _ = await daemon.events.wait(within: .seconds(10), until: { served($0) == nil })
        }
        return SecondDaemonStart(busName: busName, served: unique, status: status ?? -1, message: lastLine(of: log))
    }

    private static func lastLine(of log: String) -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map(String.init) ?? "(nothing logged)"
    }
}
