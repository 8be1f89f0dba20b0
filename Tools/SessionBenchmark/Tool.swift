import Foundation

/// A failure that ends the benchmark, or (for the daemon half) makes the daemon "not available".
enum BenchError: Error, CustomStringConvertible {
    /// The target answered a call with a D-Bus error; `name` is the error name.
    case errorReply(name: String, detail: String)
    /// Anything else: a tool that failed, a process that never came up, a timeout.
    case failed(String)

    var description: String {
        switch self {
        case .errorReply(let name, let detail): return "error reply \(name)" + (detail.isEmpty ? "" : " (\(detail))")
        case .failed(let message): return message
        }
    }
}

/// Progress and diagnostics go to stderr, so stdout carries only the table or the JSON.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("session-benchmark: \(message)\n".utf8))
}

/// What a finished program left behind.
struct ToolResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// The per-run scratch directory: compiled C programs, the bus config, and the children's logs.
struct Workspace {
    let directory: URL

    static func create() throws -> Workspace {
        removeAbandoned()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return Workspace(directory: directory)
    }

    private static let prefix = "navsession-bench-"

    /// An interrupted run exits from its signal handler, where deleting files is not safe, so its
    /// directory stays behind; the next run removes directories whose owning pid is gone.
    private static func removeAbandoned() {
        let tmp = FileManager.default.temporaryDirectory
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: tmp.path) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = entry.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                  kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: tmp.appendingPathComponent(entry))
        }
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A fresh file opened for writing, for a child's stdout or stderr.
    func logFile(_ name: String) throws -> FileHandle {
        let path = path(name)
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path)
        else { throw BenchError.failed("cannot create \(path)") }
        return handle
    }

    /// The last lines of a log, for error messages.
    func tail(_ name: String, lines: Int = 5) -> String {
        let text = (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Spawning programs. Short-lived tools run to completion here; long-lived services are
/// registered with ``Children`` so every exit path stops them.
enum Tool {
    /// The environment every child gets: the private bus only, never the developer's session.
    static func environment(busAddress: String?) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE"] {
            env[key] = nil
        }
        if let busAddress { env["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        return env
    }

    /// Runs `program` (looked up in PATH unless it contains a slash) to completion.
    static func run(_ program: String, _ arguments: [String], busAddress: String? = nil,
                    in workspace: Workspace) throws -> ToolResult {
        let process = Process()
        configure(process, program, arguments, busAddress: busAddress)
        let stdout = Pipe()
        // stderr goes to a file, not a second pipe: reading two pipes in turn can deadlock
        // once the unread one fills its buffer.
        let errName = "tool-\(UInt32.random(in: 0...UInt32.max)).err"
        let errFile = try workspace.logFile(errName)
        process.standardOutput = stdout
        process.standardError = errFile
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError.failed("cannot start \(program): \(error.localizedDescription)")
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errFile.close()
        let errText = (try? String(contentsOfFile: workspace.path(errName), encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: workspace.path(errName))
        return ToolResult(status: process.terminationStatus,
                          stdout: String(decoding: data, as: UTF8.self),
                          stderr: errText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Starts a long-lived service with its output in `logName` and registers it for cleanup.
    static func start(_ program: String, _ arguments: [String], busAddress: String?, logName: String,
                      stdout: Pipe? = nil, environment extra: [String: String] = [:],
                      in workspace: Workspace) throws -> Process {
        let process = Process()
        configure(process, program, arguments, busAddress: busAddress)
        process.environment = (process.environment ?? [:]).merging(extra) { $1 }
        let log = try workspace.logFile(logName)
        process.standardOutput = stdout ?? log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError.failed("cannot start \(program): \(error.localizedDescription)")
        }
        Children.shared.register(process.processIdentifier)
        return process
    }

    /// True if `program` is an executable file in one of PATH's directories.
    static func isInPath(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { dir in
            FileManager.default.isExecutableFile(atPath: "\(dir)/\(program)")
        }
    }

    private static func configure(_ process: Process, _ program: String, _ arguments: [String],
                                  busAddress: String?) {
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            // env does the PATH lookup, so a missing tool reads "env: 'cc': No such file or directory".
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        process.environment = environment(busAddress: busAddress)
    }
}
