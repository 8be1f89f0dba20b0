import DBusKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Who owns a bus name, read from the bus and `/proc`: for the one line that says who holds our name when we
/// cannot take it, and for telling a `--replace` handover of our own from a name taken by anyone else.
struct NameOwner: CustomStringConvertible {
    /// The owner's unique name (`:1.42`).
    var uniqueName: String
    /// Its process id, when the bus knows it.
    var pid: UInt32?
    /// Its command line (from `/proc/<pid>/cmdline`), when readable.
    var commandLine: [String]

    /// The current owner of `name`, or nil when it has none (or the bus cannot say).
    static func of(_ name: BusName, on bus: Bus) async -> NameOwner? {
        let driver = BusName.bus
        guard let path = try? ObjectPath("/org/freedesktop/DBus"),
              let getOwner = try? MemberName("GetNameOwner"), let getPID = try? MemberName("GetConnectionUnixProcessID"),
              let owner = try? await bus.call(
                  destination: driver, path: path, interface: .bus, member: getOwner, arguments: [.string(name.rawValue)],
                  timeout: .seconds(5)).first?.string
        else { return nil }
        let pid = try? await bus.call(
            destination: driver, path: path, interface: .bus, member: getPID, arguments: [.string(owner)],
            timeout: .seconds(5)).first?.uint32
        return NameOwner(uniqueName: owner, pid: pid, commandLine: pid.map { commandLine(of: Int32(bitPattern: $0)) } ?? [])
    }

    /// A process's command line from `/proc/<pid>/cmdline` (empty when unreadable): for the lines that name who
    /// holds our name or our state directory.
    static func commandLine(of pid: Int32) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether this owner is a navsessiond started with `--replace`: the handover `--replace` documents, after
    /// which the replaced daemon exits 0. Anyone else taking the name is an error.
    var isReplacingDaemon: Bool {
        guard let program = commandLine.first, commandLine.contains("--replace") else { return false }
        return URL(fileURLWithPath: program).lastPathComponent == "navsessiond" || runsOurExecutable
    }

    /// Whether the owner runs the very executable this process runs (a navsessiond installed under another name).
    private var runsOurExecutable: Bool {
        guard let pid, let theirs = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
              let ours = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        else { return false }
        return theirs == ours
    }

    /// `:1.42 (pid 1234: navsessiond --replace …)`.
    var description: String {
        guard let pid else { return uniqueName }
        let command = commandLine.isEmpty ? "" : ": " + commandLine.joined(separator: " ").prefix(200)
        return "\(uniqueName) (pid \(pid)\(command))"
    }
}
