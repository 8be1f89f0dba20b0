import DBusKit
import DBusTestSupport
import Foundation
import Testing

/// The real `navsessiond` binary on a private bus, with its own state directory.
final class DaemonFixture: @unchecked Sendable {
    let bus: PrivateBus
    let client: Bus
    let stateDirectory: String
    private(set) var process: Process?
    private(set) var stderrURL: URL

    static let name = "org.navsession.Demo"
    static let session = "/org/navsession/Session1"

    static func binary() throws -> URL {
        let running = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        let candidates = [
            running.deletingLastPathComponent().appendingPathComponent("navsessiond"),
            PrivateBus.repositoryRoot.appendingPathComponent(".build/debug/navsessiond"),
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
    }

    init(serviceDirectories: [String] = []) async throws {
        bus = try PrivateBus.start(serviceDirectories: serviceDirectories)
        client = try await bus.connect()
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("navsessiond-\(UUID().uuidString)").path
        stderrURL = URL(fileURLWithPath: stateDirectory + ".err")
    }

    /// Starts the daemon and waits until it owns its name (NameOwnerChanged, no sleeping).
    @discardableResult
    func start(_ extra: [String] = [], waitForName: Bool = true) async throws -> Process {
        let name = try BusName(Self.name)
        let owners = try await client.signals(
            matching: MatchRule(
                sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("NameOwnerChanged"), arguments: [0: Self.name]))
        let process = try launch(extra)
        self.process = process
        if waitForName, try await !client.nameHasOwner(name) {
            _ = try await first(owners, timeout: .seconds(30)) { $0.arguments.count == 3 && $0.arguments[2].string != "" }
        }
        return process
    }

    /// Launches the daemon without waiting.
    func launch(_ extra: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["--bus", bus.address, "--state-dir", stateDirectory, "--log-level", "warning"] + extra
        process.environment = ["PATH": "/usr/bin:/bin"]
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await client.call(
            destination: try BusName(Self.name), path: try ObjectPath(path), interface: try InterfaceName(interface),
            member: try MemberName(member), arguments: arguments, timeout: .seconds(10))
    }

    func openWindow(_ scene: String = "main") async throws -> String {
        let reply = try await call(
            Self.session, "org.navsession.Session1", "OpenWindow",
            [.string(scene), .dictionary(key: .string, value: .string, [])])
        return try #require(reply.first?.objectPath?.rawValue)
    }

    func window(_ path: String, _ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await call(path, "org.navsession.Window1", member, arguments)
    }

    func run(_ tool: String, _ arguments: [String]) async throws -> ToolResult {
        try await bus.run(tool, arguments)
    }

    func stop() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        bus.stop()
        try? FileManager.default.removeItem(atPath: stateDirectory)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}

/// The first element of `stream` matching `predicate`, or a thrown timeout.
func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, timeout: Duration, where predicate: @escaping @Sendable (Element) -> Bool
) async throws -> Element {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where predicate(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        return try #require(result, "no matching element within \(timeout)")
    }
}

extension Value {
    static let noParams = Value.dictionary(key: .string, value: .string, [])
    static func params(_ pairs: [String: String]) -> Value {
        .dictionary(key: .string, value: .string, pairs.map { DictionaryEntry(.string($0.key), .string($0.value)) })
    }
}
