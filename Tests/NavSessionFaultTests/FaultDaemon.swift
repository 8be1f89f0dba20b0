import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// The real `navsessiond` on a private bus with a state directory the test damages between runs.
///
/// Unlike the service tests' fixture, a start may legitimately end in an exit (unreadable state), so
/// ``launch(as:)`` reports either "serving" (the name is owned) or the exit status, whichever comes first.
final class FaultDaemon: @unchecked Sendable {
    enum Start: Equatable {
        case serving
        case exited(Int32)
    }

    static let name = "org.navsession.Demo"
    static let session = "/org/navsession/Session1"
    static let startTimeout: Duration = .seconds(30)

    let bus: PrivateBusDaemon
    let client: Bus
    let stateDirectory: String
    let stderrPath: String
    private(set) var process: Process?
    private var exit: ExitWatch?

    /// - Parameters:
    ///   - stateDirectory: defaults to a fresh temporary directory (removed by ``stop()``).
    ///   - anyUser: lets connections of any uid in (for a daemon run as another user).
    init(stateDirectory: String? = nil, anyUser: Bool = false) async throws {
        var config = PrivateBus.configFile
        if anyUser {
            let text = try String(contentsOfFile: config, encoding: .utf8)
                .replacingOccurrences(of: "<allow own=\"*\"/>", with: "<allow own=\"*\"/>\n    <allow user=\"*\"/>")
            config = FileManager.default.temporaryDirectory.appendingPathComponent("fault-bus-\(UUID().uuidString).conf").path
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }
        bus = try PrivateBusDaemon.start(configFile: config)
        if anyUser { try? FileManager.default.removeItem(atPath: config) }
        client = try await Bus.connect(.address(bus.address))
        self.stateDirectory = stateDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("navsession-fault-\(UUID().uuidString)").path
        stderrPath = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-fault-\(UUID().uuidString).err").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    }

    static func binary() throws -> String {
        let running = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("navsessiond").path,
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/navsessiond").path,
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) }, "no navsessiond binary")
    }

    /// Everything the daemon instances wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Starts the daemon (optionally through `wrapper`, e.g. setpriv) and waits until it owns its name or exits.
    @discardableResult
    func launch(through wrapper: [String] = []) async throws -> Start {
        let owners = try await client.signals(
            matching: MatchRule(
                sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("NameOwnerChanged"), arguments: [0: Self.name]))
        let process = Process()
        let daemon = try Self.binary()
        let arguments = ["--bus", bus.address, "--state-dir", stateDirectory, "--log-level", "warning"]
        if let tool = wrapper.first {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = Array(wrapper.dropFirst()) + [daemon] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: daemon)
            process.arguments = arguments
        }
        process.environment = ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
        let handle = try #require(FileHandle(forWritingAtPath: stderrPath))
        handle.seekToEndOfFile()
        process.standardError = handle
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exit = ExitWatch()
        process.terminationHandler = { exit.markExited($0.terminationStatus) }
        try process.run()
        try? handle.close()
        self.process = process
        self.exit = exit
        let result: Start? = await withTaskGroup(of: Start?.self) { group in
            group.addTask {
                let owned = await owners.first(within: Self.startTimeout) {
                    $0.arguments.count == 3 && $0.arguments[2].string != ""
                }
                return owned == nil ? nil : .serving
            }
            group.addTask {
                guard let status = await exit.wait(within: Self.startTimeout) else { return nil }
                return .exited(status)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return try #require(result, "navsessiond neither owned \(Self.name) nor exited within \(Self.startTimeout); stderr:\n\(stderr)")
    }

    /// Starts and requires it to serve.
    func start() async throws {
        let result = try await launch()
        try #require(result == .serving, "navsessiond did not start: \(result); stderr:\n\(stderr)")
    }

    /// SIGKILL and wait (bounded) until the process is gone and the bus released the name.
    func kill() async throws {
        guard let process, let exit else { return }
        let vanished = try await client.signals(
            matching: MatchRule(
                sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("NameOwnerChanged"), arguments: [0: Self.name]))
        let owned = try await client.nameHasOwner(try BusName(Self.name))
        Glibc.kill(process.processIdentifier, SIGKILL)
        try #require(await exit.wait(within: .seconds(10)) != nil, "navsessiond survived SIGKILL for 10 s")
        if owned {
            _ = await vanished.first(within: .seconds(10)) { $0.arguments.count == 3 && $0.arguments[2].string == "" }
        }
    }

    /// SIGTERM (a clean shutdown, which writes a snapshot) and wait, bounded; SIGKILL after 10 s.
    func terminate() async throws {
        guard let process, let exit, exit.status == nil else { return }
        process.terminate()
        if await exit.wait(within: .seconds(10)) == nil {
            Glibc.kill(process.processIdentifier, SIGKILL)
            _ = await exit.wait(within: .seconds(5))
            Issue.record("navsessiond did not exit within 10 s of SIGTERM; stderr:\n\(stderr)")
        }
    }

    /// Stops the daemon and the bus; removes the state directory unless `keepState`.
    func stop(keepState: Bool = false) async {
        if let process, let exit, exit.status == nil {
            Glibc.kill(process.processIdentifier, SIGKILL)
            _ = await exit.wait(within: .seconds(10))
        }
        await client.close()
        bus.stop()
        if !keepState { try? FileManager.default.removeItem(atPath: stateDirectory) }
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    // MARK: Calls

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await client.call(
            destination: try BusName(Self.name), path: try ObjectPath(path), interface: try InterfaceName(interface),
            member: try MemberName(member), arguments: arguments, timeout: .seconds(10))
    }

    /// Opens a window and returns its number.
    func openWindow(_ scene: String) async throws -> UInt64 {
        let reply = try await call(
            Self.session, "org.navsession.Session1", "OpenWindow",
            [.string(scene), .dictionary(key: .string, value: .string, [])])
        let path = try #require(reply.first?.objectPath?.rawValue)
        return try #require(path.split(separator: "/").last.flatMap { UInt64($0) })
    }

    /// The open windows' numbers.
    func windows() async throws -> [UInt64] {
        let reply = try await call(Self.session, "org.navsession.Session1", "ListWindows")
        return (reply.first?.arrayElements ?? []).compactMap { $0.objectPath?.rawValue.split(separator: "/").last.flatMap { UInt64($0) } }
    }

    /// A Window1 command; returns the new version.
    @discardableResult
    func command(_ window: UInt64, _ member: String, _ arguments: [Value] = []) async throws -> UInt64 {
        let reply = try await call("\(Self.session)/window/\(window)", "org.navsession.Window1", member, arguments)
        return try #require(reply.first?.uint64, "\(member) returned \(reply)")
    }

    func push(_ window: UInt64, _ id: Int) async throws -> UInt64 {
        try await command(
            window, "StackAppend",
            [.string("detail"), .dictionary(key: .string, value: .string, [DictionaryEntry(.string("id"), .string("\(id)"))])])
    }

    /// The window's GetState JSON.
    func state(_ window: UInt64) async throws -> String {
        let reply = try await call("\(Self.session)/window/\(window)", "org.navsession.Window1", "GetState")
        return try #require(reply.first?.string)
    }

    /// The window's version (from GetState).
    func version(_ window: UInt64) async throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(try await state(window).utf8)) as? [String: Any]
        return try #require(object?["version"] as? Int)
    }

    // MARK: Files

    var statePath: String { stateDirectory + "/state.json" }
    var journalPath: String { stateDirectory + "/journal.jsonl" }

    /// Files in the state directory whose names start with `prefix` followed by a dot (set-aside copies).
    func setAside(_ name: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []
        return entries.filter { $0.hasPrefix(name + ".") && !$0.hasSuffix(".tmp") }
    }
}
