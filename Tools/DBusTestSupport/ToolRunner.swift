import DBusKit
import Foundation

/// Runs external tools (`dbus-send`, `gdbus`, `busctl`, the project's own executables) to completion with a
/// clean D-Bus environment and a hard timeout, without blocking a thread of the cooperative pool.
public enum ToolRunner {
    /// Runs `tool arguments…` (`tool` looked up in `PATH` when it has no `/`).
    /// - Parameters:
    ///   - environment: added to the clean environment (``PrivateBusDaemon/cleanEnvironment(adding:)``).
    ///   - replacingEnvironment: when set, exactly this environment instead.
    ///   - timeout: after this the tool and everything it started are killed and the result has
    ///     `timedOut == true`.
    public static func run(
        _ tool: String, _ arguments: [String], environment extra: [String: String],
        replacingEnvironment: [String: String]? = nil, timeout: Duration
    ) async throws -> ToolResult {
        var environment: [String: String] = [:]
        if let replacingEnvironment {
            environment = replacingEnvironment
        } else {
            for entry in PrivateBusDaemon.cleanEnvironment(adding: extra) {
                guard let equals = entry.firstIndex(of: "=") else { continue }
                environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
            }
        }
        // Files, not pipes: a chatty tool can never block on a full pipe while we wait for it to exit.
        let output = try CapturedOutput()
        defer { output.remove() }
        let process = try ChildProcess.spawn(
            [tool] + arguments, environment: environment, stdout: output.stdoutDescriptor,
            stderr: output.stderrDescriptor)
        output.closeWriters()
        var timedOut = false
        var exit = await process.exit(within: timeout)
        if exit == nil {
            timedOut = true
            // What the tool started goes too: a script's background daemon would otherwise live on with the tool's
            // descriptors. The tree is frozen first (listed while the tool is still the parent), so nothing in it
            // can start another process between the listing and the kill.
            let descendants = ProcessTree.freeze(process.pid) { process.signal(SIGSTOP) }
            for descendant in descendants { kill(descendant, SIGKILL) }
            process.signal(SIGKILL)
            exit = await process.exit(within: .seconds(10))
        }
        return ToolResult(
            status: exit?.shellStatus ?? 128 + SIGKILL, stdout: output.stdout, stderr: output.stderr,
            timedOut: timedOut)
    }
}

/// A child's standard output and error, captured in two temporary files.
struct CapturedOutput {
    private let stdoutURL: URL
    private let stderrURL: URL
    private let stdoutHandle: FileHandle
    private let stderrHandle: FileHandle

    init() throws {
        let directory = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        stdoutURL = directory.appendingPathComponent("navsession-tool-\(id).out")
        stderrURL = directory.appendingPathComponent("navsession-tool-\(id).err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        stderrHandle = try FileHandle(forWritingTo: stderrURL)
    }

    var stdoutDescriptor: Int32 { stdoutHandle.fileDescriptor }
    var stderrDescriptor: Int32 { stderrHandle.fileDescriptor }

    /// Closes this process's copies once the child has its own.
    func closeWriters() {
        try? stdoutHandle.close()
        try? stderrHandle.close()
    }

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func remove() {
        closeWriters()
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}
