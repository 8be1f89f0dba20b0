import DBusKit
import Foundation
import Synchronization

/// Runs external tools with a clean D-Bus environment and a hard timeout.
public enum ToolRunner {
    public static func run(
        _ tool: String, _ arguments: [String], environment extra: [String: String], timeout: Duration
    ) async throws -> ToolResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var environment: [String: String] = [:]
        for entry in PrivateBusDaemon.cleanEnvironment(adding: extra) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        process.environment = environment
        // Files, not pipes: a chatty tool can never block on a full pipe while we wait for it to exit.
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("dbuskit-tool-\(UUID().uuidString).out")
        let errURL = directory.appendingPathComponent("dbuskit-tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice

        let killedForTimeout = Atomic<Bool>(false)
        let pid = Mutex<Int32>(0)
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            let target = pid.withLock { $0 }
            if target > 0 {
                killedForTimeout.store(true, ordering: .relaxed)
                // What the tool started goes too (listed while it is still the parent): a script's background
                // daemon would otherwise hold the tool's descriptors open, and this call would never return.
                for descendant in ProcessTree.descendants(of: target) { kill(descendant, SIGKILL) }
                kill(target, SIGKILL)
            }
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                continuation.resume(returning: finished.terminationStatus)
            }
            do {
                try process.run()
                pid.withLock { $0 = process.processIdentifier }
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try? outHandle.close()
        try? errHandle.close()
        return ToolResult(
            status: status,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
            timedOut: killedForTimeout.load(ordering: .relaxed))
    }
}
