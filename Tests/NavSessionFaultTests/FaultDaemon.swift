import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The fault suites' view of the project's one daemon fixture (NavSessionTesting's): a private bus and a
/// state directory the test damages between runs.
///
/// A start may legitimately end in an exit (unreadable state), so ``launch(through:)`` reports either
/// "serving" (the name is owned) or the exit, whichever comes first.
final class FaultDaemon: Sendable {
    typealias Start = NavSessionTestDaemon.Launch

    static let name = "org.navsession.Demo"
    static let session = "/org/navsession/Session1"

    let fixture: NavSessionTestDaemon
    let stateDirectory: String
    private let ownsStateDirectory: Bool

    /// - Parameters:
    ///   - stateDirectory: defaults to a fresh temporary directory (removed by ``stop(keepState:)``).
    ///   - anyUser: lets connections of any uid in (for a daemon run as another user).
    init(stateDirectory: String? = nil, anyUser: Bool = false) async throws {
        var config: String?
        if anyUser {
            let text = try String(contentsOfFile: PrivateBus.configFile, encoding: .utf8)
                .replacingOccurrences(of: "<allow own=\"*\"/>", with: "<allow own=\"*\"/>\n    <allow user=\"*\"/>")
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("fault-bus-\(UUID().uuidString).conf").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            config = path
        }
        defer { if let config { try? FileManager.default.removeItem(atPath: config) } }
        ownsStateDirectory = stateDirectory == nil
        self.stateDirectory = stateDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("navsession-fault-\(UUID().uuidString)").path
        fixture = try await NavSessionTestDaemon.start(.init(
            daemonPath: try Self.binary(), busConfiguration: config, state: .directory(self.stateDirectory),
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"], launchesDaemon: false))
    }

    static func binary() throws -> String { try BuiltProduct.require("navsessiond").path }

    /// Everything the daemon instances wrote so far.
    var stderr: String { fixture.output }

    /// Starts the daemon (optionally through `wrapper`, e.g. setpriv) and waits until it owns its name or exits.
    @discardableResult
    func launch(through wrapper: [String] = []) async throws -> Start {
        try await fixture.launchAndWait(through: wrapper)
    }

    /// Starts and requires it to serve.
    func start() async throws {
        let result = try await launch()
        try #require(result == .serving, "navsessiond did not start: \(result); stderr:\n\(stderr)")
    }

    /// SIGKILL and wait (bounded) until the process is gone and the bus released the name.
    func kill() async throws {
        try await fixture.kill()
    }

    /// SIGTERM (a clean shutdown, which writes a snapshot) and wait, bounded; SIGKILL after 10 s.
    func terminate() async throws {
        try await fixture.stopDaemon()
    }

    /// Stops the daemon (SIGKILL: what matters here is the state on disk, not a clean exit) and the bus;
    /// removes the state directory unless `keepState` or the caller chose it.
    func stop(keepState: Bool = false) async {
        try? await fixture.kill()
        try? await fixture.stop()
        if !keepState && ownsStateDirectory { try? FileManager.default.removeItem(atPath: stateDirectory) }
    }

    // MARK: Calls

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await fixture.bus.call(
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
