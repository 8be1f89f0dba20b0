import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// What the GTK renderer tests need from the machine: Xvfb and a Python with PyGObject and GTK 4.
enum GtkEnvironment {
    /// The first `python3` that can load GTK 4 through PyGObject (`NAVSESSION_PYTHON` first, then Debian's);
    /// asked once, asynchronously (the suite's condition awaits it), so no thread waits for the child.
    static func python() async -> String? {
        await pythonProbe.value
    }

    private static let pythonProbe = Task<String?, Never> {
        let candidates = [ProcessInfo.processInfo.environment["NAVSESSION_PYTHON"], "/usr/bin/python3", "python3"]
        for candidate in candidates.compactMap({ $0 }) where await canLoadGtk(candidate) { return candidate }
        return nil
    }

    static let xvfb: String? = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the suite can run here (its `.enabled(if:)` condition).
    static func available() async -> Bool {
        await python() != nil && xvfb != nil
    }

    static let skipReason =
        "needs Xvfb and GTK 4 for Python (apt-get install xvfb python3-gi gir1.2-gtk-4.0, or ./scripts/setup)"

    private static func canLoadGtk(_ python: String) async -> Bool {
        let result = try? await ToolRunner.run(
            python, ["-c", "import gi; gi.require_version('Gtk', '4.0'); from gi.repository import Gtk"],
            environment: [:], replacingEnvironment: ["PATH": "/usr/bin:/bin"], timeout: Liveness.bound(.seconds(20)))
        return result?.status == 0
    }
}

/// Xvfb, a private bus, navsessiond (the demo, a throwaway state directory) and the GTK renderer.
final class RendererHarness: @unchecked Sendable {
    static let daemonName = "org.navsession.Demo"
    static let rendererName = "org.navsession.GtkRenderer"
    static let session = "/org/navsession/Session1"
    static let rendererPath = "/org/navsession/GtkRenderer"
    static let window1Interface = "org.navsession.Window1"

    let daemon: NavSessionTestDaemon
    var client: Bus { daemon.bus }
    let display: String
    private let xvfb: ChildProcess
    private var renderer: ChildProcess?
    private let scratch: URL

    var rendererLog: String { (try? String(contentsOf: scratch.appendingPathComponent("renderer.log"), encoding: .utf8)) ?? "" }
    var daemonLog: String { daemon.output }

    /// Starts everything and waits until the daemon and the renderer own their names.
    static func start() async throws -> RendererHarness {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("gtk-renderer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let (xvfb, display) = try await startXvfb()
        let daemon: NavSessionTestDaemon
        do {
            daemon = try await NavSessionTestDaemon.start(.init(
                daemonPath: try binary("navsessiond").path, state: .throwawayDirectory,
                environment: ["PATH": "/usr/bin:/bin"]))
        } catch {
            await xvfb.terminate(within: .seconds(10))
            throw error
        }
        let harness = RendererHarness(daemon: daemon, display: display, xvfb: xvfb, scratch: scratch)
        do {
            try await harness.startRenderer()
        } catch {
            try? await harness.stop()
            throw error
        }
        return harness
    }

    private init(daemon: NavSessionTestDaemon, display: String, xvfb: ChildProcess, scratch: URL) {
        self.daemon = daemon
        self.display = display
        self.xvfb = xvfb
        self.scratch = scratch
    }

    /// Xvfb on a display number it picks itself (`-displayfd`), so parallel runs never collide.
    private static func startXvfb() async throws -> (ChildProcess, String) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HarnessError("pipe: \(String(cString: strerror(errno)))") }
        defer { close(fds[0]) }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(
                [try #require(GtkEnvironment.xvfb), "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                environment: ["PATH": "/usr/bin:/bin"], stdout: fds[1], stderr: devNull)
        } catch {
            close(fds[1])
            throw error
        }
        close(fds[1])
        // Xvfb writes the display number and a newline once it accepts clients; read on a thread of its own
        // (Xvfb exiting closes the pipe, so the read ends either way).
        let reading = FileHandle(fileDescriptor: dup(fds[0]), closeOnDealloc: true)
        let lines = AsyncStream<String> { continuation in
            Thread.detachNewThread {
                var text = ""
                PipeReader.forEachChunk(reading) { chunk in
                    text += String(decoding: chunk, as: UTF8.self)
                    if text.contains("\n") { continuation.yield(text) }
                }
                continuation.finish()
            }
        }
        let bound = Liveness.bound(.seconds(30))
        let text = await lines.first(within: bound) { _ in true } ?? ""
        let number = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Int(number) != nil else {
            await process.terminate(within: .seconds(10))
            throw HarnessError("Xvfb did not report a display within \(bound) (got \(text.debugDescription))")
        }
        return (process, ":\(number)")
    }

    private func startRenderer() async throws {
        let owners = try await nameOwners(Self.rendererName)
        let script = PrivateBus.repositoryRoot.appendingPathComponent("Examples/gtk-renderer/renderer.py").path
        var environment: [String: String] = [:]
        for entry in PrivateBusDaemon.cleanEnvironment(adding: [
            "DBUS_SESSION_BUS_ADDRESS": daemon.address, "DISPLAY": display, "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
            "GDK_BACKEND": "x11", "PYTHONDONTWRITEBYTECODE": "1",
        ]) {
            if let equals = entry.firstIndex(of: "=") {
                environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
            }
        }
        environment["WAYLAND_DISPLAY"] = nil
        let log = try logFile("renderer.log")
        defer { try? log.close() }
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let process = try ChildProcess.spawn(
            [try #require(await GtkEnvironment.python()), script, "--verbose"], environment: environment,
            stdout: devNull, stderr: log.fileDescriptor)
        renderer = process
        try await waitForOwner(Self.rendererName, owners) {
            "the renderer did not own \(Self.rendererName); its log:\n\(self.rendererLog)"
        }
    }

    /// Stops the renderer, the daemon, the bus and Xvfb, and removes the files. Never blocks a thread.
    /// - Throws: ``NavSessionTestDaemon/StopError`` when the daemon did not exit on SIGTERM.
    func stop() async throws {
        await renderer?.terminate(within: .seconds(10))
        await xvfb.terminate(within: .seconds(10))
        try? FileManager.default.removeItem(at: scratch)
        try await daemon.stop()
    }

    // MARK: Calls

    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [Value] = [])
        async throws -> [Value]
    {
        try await client.call(
            destination: try BusName(destination), path: try ObjectPath(path), interface: try InterfaceName(interface),
            member: try MemberName(member), arguments: arguments, timeout: Liveness.bound(.seconds(10)))
    }

    /// `dbus-send --print-reply=literal --dest=org.navsession.Demo path interface.member args…`; fails on an error.
    @discardableResult
    func send(_ path: String, _ member: String, _ arguments: String...) async throws -> String {
        let result = try await daemon.run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(Self.daemonName)", path, member] + arguments,
            timeout: Liveness.bound(.seconds(30)))
        try #require(result.status == 0, "dbus-send \(member) \(arguments): \(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The renderer hook's Describe, parsed.
    func describe() async throws -> [String: Any] {
        let reply = try await call(Self.rendererName, Self.rendererPath, "org.navsession.GtkRenderer1", "Describe")
        let text = try #require(reply.first?.string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Clicks like the user (the renderer hook's Click).
    func click(_ widget: String) async throws {
        _ = try await call(Self.rendererName, Self.rendererPath, "org.navsession.GtkRenderer1", "Click", [.string(widget)])
    }

    func windows() async throws -> [String] {
        let reply = try await call(Self.daemonName, Self.session, "org.navsession.Session1", "ListWindows")
        return (reply.first?.arrayElements ?? []).compactMap { $0.objectPath?.rawValue }
    }

    func state(_ window: String) async throws -> [String: Any] {
        let reply = try await call(Self.daemonName, window, "org.navsession.Window1", "GetState")
        let text = try #require(reply.first?.string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func properties(_ window: String) async throws -> [String: Value] {
        let reply = try await call(
            Self.daemonName, window, "org.freedesktop.DBus.Properties", "GetAll", [.string("org.navsession.Window1")])
        var result: [String: Value] = [:]
        for entry in reply.first?.dictionaryEntries ?? [] {
            if let key = entry.key.string { result[key] = entry.value.variantValue ?? entry.value }
        }
        return result
    }

    // MARK: Support

    static func binary(_ name: String) throws -> URL { try BuiltProduct.require(name) }

    private func logFile(_ name: String) throws -> FileHandle {
        let url = scratch.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return try FileHandle(forWritingTo: url)
    }

    private func nameOwners(_ name: String) async throws -> AsyncStream<Signal> {
        try await client.signals(
            matching: MatchRule(
                sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("NameOwnerChanged"), arguments: [0: name]))
    }

    private func waitForOwner(
        _ name: String, _ owners: AsyncStream<Signal>, _ message: @escaping @Sendable () -> String = { "" }
    ) async throws {
        if try await client.nameHasOwner(try BusName(name)) { return }
        let bound = Liveness.bound(.seconds(30))
        let owned = await owners.first(within: bound) { $0.arguments.count == 3 && $0.arguments[2].string != "" }
        try #require(owned != nil, "\(name) was not owned within \(bound). \(message())")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
