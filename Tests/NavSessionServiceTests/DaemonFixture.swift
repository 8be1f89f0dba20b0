import DBusKit
import DBusTestSupport
import Foundation
import Synchronization
import Testing

/// The real `navsessiond` binary on a private bus, with its own state directory.
final class DaemonFixture: @unchecked Sendable {
    let bus: PrivateBus
    let client: Bus
    let stateDirectory: String
    private(set) var process: Process?
    private(set) var stderrURL: URL
    /// Exit watches of every launched process, by process id.
    private let exits = Mutex<[Int32: ProcessExit]>([:])
    /// How long a daemon may take to exit after SIGTERM before it is killed and the test fails.
    static let exitDeadline: Duration = .seconds(10)

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

    /// Runs the daemon with `--ephemeral` (and `XDG_STATE_HOME` pointing at ``stateDirectory``, so any
    /// file it wrongly wrote would show up there).
    let ephemeral: Bool

    init(serviceDirectories: [String] = [], ephemeral: Bool = false) async throws {
        self.ephemeral = ephemeral
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
        let state = ephemeral ? ["--ephemeral"] : ["--state-dir", stateDirectory]
        process.arguments = ["--bus", bus.address] + state + ["--log-level", "warning"] + extra
        process.environment = ["PATH": "/usr/bin:/bin"]
        if ephemeral { process.environment?["XDG_STATE_HOME"] = stateDirectory }
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = FileHandle.nullDevice
        let exit = ProcessExit()
        process.terminationHandler = { _ in exit.markExited() }
        try process.run()
        exits.withLock { $0[process.processIdentifier] = exit }
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

    /// Waits (without blocking a thread) until `process` exits, at most `timeout`.
    /// - Returns: whether it exited in time.
    func waitForExit(_ process: Process, timeout: Duration = DaemonFixture.exitDeadline) async -> Bool {
        guard let exit = exits.withLock({ $0[process.processIdentifier] }) else {
            return await process.exited(within: timeout)
        }
        return await exit.wait(timeout: timeout)
    }

    /// Stops the daemon (SIGTERM, then SIGKILL after ``exitDeadline``), the bus, and removes the files.
    /// Does not block a thread; a daemon that ignores SIGTERM fails the test with its stderr.
    func shutdown() async {
        if let process, process.isRunning {
            process.terminate()
            if await !waitForExit(process) {
                kill(process.processIdentifier, SIGKILL)
                _ = await waitForExit(process, timeout: .seconds(5))
                recordHang(process)
            }
        }
        cleanUp()
    }

    /// Stops the daemon with SIGTERM and waits for it, keeping the bus and the state directory (to
    /// restart it with ``start(_:waitForName:)``).
    func shutdown(keepingState: Bool) async {
        guard let process, process.isRunning else { return }
        process.terminate()
        if await !waitForExit(process) {
            kill(process.processIdentifier, SIGKILL)
            _ = await waitForExit(process, timeout: .seconds(5))
            recordHang(process)
        }
    }

    /// Synchronous ``shutdown()`` for `defer` blocks: bounded by ``exitDeadline`` (then SIGKILL and a
    /// recorded failure), never waits forever.
    func stop() {
        if let process, !process.terminate(within: Self.exitDeadline) { recordHang(process) }
        cleanUp()
    }

    private func recordHang(_ process: Process) {
        Issue.record(
            "navsessiond (pid \(process.processIdentifier)) did not exit within \(Self.exitDeadline) of SIGTERM and was killed; its stderr:\n\(stderr)")
    }

    private func cleanUp() {
        bus.stop()
        try? FileManager.default.removeItem(atPath: stateDirectory)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}

/// A launched process's exit, as an awaitable event (fed by `Process.terminationHandler`).
final class ProcessExit: Sendable {
    private struct State {
        var exited = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Called once the process has exited: wakes every waiter.
    func markExited() {
        let waiters = state.withLock { state in
            state.exited = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the process has exited within `timeout`.
    func wait(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.untilExited(); return true }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let exited = await group.next() ?? false
            group.cancelAll()
            return exited || state.withLock { $0.exited }
        }
    }

    /// Returns once the process exited or the task is cancelled.
    private func untilExited() async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.exited || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}

/// The first element of `stream` matching `predicate`, or a thrown timeout.
func first<Element: Sendable>(
    _ stream: AsyncStream<Element>, timeout: Duration, where predicate: @escaping @Sendable (Element) -> Bool
) async throws -> Element {
    try #require(await stream.first(within: timeout, where: predicate), "no matching element within \(timeout)")
}

extension Value {
    static let noParams = Value.dictionary(key: .string, value: .string, [])
    static func params(_ pairs: [String: String]) -> Value {
        .dictionary(key: .string, value: .string, pairs.map { DictionaryEntry(.string($0.key), .string($0.value)) })
    }
}
