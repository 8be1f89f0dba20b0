import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The service suites drive the project's one daemon fixture, NavSessionTesting's, with raw D-Bus calls.
typealias DaemonFixture = NavSessionTestDaemon

extension NavSessionTestDaemon {
    static let name = "org.navsession.Demo"
    static let session = "/org/navsession/Session1"

    /// The `navsessiond` built next to the test bundle.
    static func binary() throws -> URL { try BuiltProduct.require("navsessiond") }

    /// The service suites' daemon: the demo, a state directory of its own (so restarts keep the session),
    /// a bare `PATH`.
    static func serviceConfiguration(
        manifest: Configuration.Manifest = .demo, state: Configuration.State = .throwawayDirectory,
        serviceDirectories: [String] = [], environment: [String: String] = [:], launchesDaemon: Bool = true
    ) throws -> Configuration {
        Configuration(
            manifest: manifest, daemonPath: try binary().path, serviceDirectories: serviceDirectories, state: state,
            environment: ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new },
            launchesDaemon: launchesDaemon)
    }

    /// Starts the service suites' daemon, runs `body`, and stops everything whether `body` throws or not.
    static func with(
        manifest: Configuration.Manifest = .demo, state: Configuration.State = .throwawayDirectory,
        serviceDirectories: [String] = [], environment: [String: String] = [:], launchesDaemon: Bool = true,
        _ body: (NavSessionTestDaemon) async throws -> Void
    ) async throws {
        try await withDaemon(
            try serviceConfiguration(
                manifest: manifest, state: state, serviceDirectories: serviceDirectories, environment: environment,
                launchesDaemon: launchesDaemon),
            body)
    }

    /// The state directory's path (the suites' daemons keep one unless started in memory).
    var statePath: String { stateDirectory ?? directory.appendingPathComponent("state").path }

    /// Launches another daemon on the same bus and state and requires it to serve.
    func relaunch(_ extraArguments: [String] = []) async throws {
        let outcome = try await launchAndWait(extraArguments)
        try #require(outcome == .serving, "navsessiond did not serve again: \(outcome); it wrote:\n\(output)")
    }

    /// Whether `process` exits within `timeout`.
    func waitForExit(_ process: ChildProcess, timeout: Duration = NavSessionTestDaemon.exitDeadline) async -> Bool {
        await process.exit(within: timeout) != nil
    }

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await bus.call(
            destination: try BusName(Self.name), path: try ObjectPath(path), interface: try InterfaceName(interface),
            member: try MemberName(member), arguments: arguments, timeout: Liveness.bound(.seconds(30)))
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
}

/// The first element of `stream` matching `predicate`, or a thrown timeout after the liveness bound of `timeout`
/// (``Liveness/bound(_:)``). For a wait for an event that must come; a check that something does not come
/// uses `stream.first(within:)` with its own short window.
func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, timeout: Duration, where predicate: @escaping @Sendable (Element) -> Bool
) async throws -> Element {
    let bound = Liveness.bound(timeout)
    return try #require(await stream.first(within: bound, where: predicate), "no matching element within \(bound)")
}

extension Value {
    static let noParams = Value.dictionary(key: .string, value: .string, [])
    static func params(_ pairs: [String: String]) -> Value {
        .dictionary(key: .string, value: .string, pairs.map { DictionaryEntry(.string($0.key), .string($0.value)) })
    }
}
