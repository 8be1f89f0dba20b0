import DBusTestSupport
import Foundation
import Synchronization
import Testing

/// A `navsessionctl` that keeps running (e.g. `watch`) while the test acts; stderr is observable as it arrives.
final class BackgroundCtl: Sendable {
    private let process: ChildProcess
    private let stdout: AsyncStream<String>
    private let stderrChunks: AsyncStream<String>
    private let stderrSoFar = Mutex("")

    /// Starts `navsessionctl arguments…`.
    init(_ arguments: [String]) throws {
        let out = Pipe()
        let errors = Pipe()
        process = try ChildProcess.spawn(
            [try Ctl.binary("navsessionctl").path] + arguments, environment: Ctl.environment(),
            stdout: out.fileHandleForWriting.fileDescriptor, stderr: errors.fileHandleForWriting.fileDescriptor)
        try out.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        stdout = Self.chunks(of: out.fileHandleForReading)
        stderrChunks = Self.chunks(of: errors.fileHandleForReading)
    }

    /// A pipe's chunks as they arrive, read with read(2) on a thread of its own: Foundation's
    /// readabilityHandler sometimes never delivers the end of file on Linux (a test then hung until its time
    /// limit), and availableData traps on EINTR.
    private static func chunks(of handle: FileHandle) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            PipeReader.forEachChunk(handle) { continuation.yield(String(decoding: $0, as: UTF8.self)) }
            continuation.finish()
        }
        return stream
    }

    /// Waits until stderr contains `text` (e.g. watch's "watching" line); fails if the process ends first.
    func waitForStderr(containing text: String) async throws {
        for await chunk in stderrChunks {
            let all = stderrSoFar.withLock { $0 += chunk; return $0 }
            if all.contains(text) { return }
        }
        let all = stderrSoFar.withLock { $0 }
        Issue.record("navsessionctl ended before writing '\(text)'; stderr: \(all)")
        throw CancellationError()
    }

    /// Sends SIGINT.
    func interrupt() {
        process.signal(SIGINT)
    }

    /// Waits for the exit (killing the process after `timeout`) and returns everything it wrote.
    func finish(timeout: Duration = .seconds(30)) async -> CtlResult {
        // SIGKILL, not SIGTERM: a tool that hangs may be one that no longer hears SIGTERM, which is what some
        // tests check, and the suite must end either way.
        var exit = await process.exit(within: timeout)
        if exit == nil {
            process.signal(SIGKILL)
            exit = await process.exit(within: .seconds(10))
        }
        var output = ""
        for await chunk in stdout { output += chunk }
        for await chunk in stderrChunks { stderrSoFar.withLock { $0 += chunk } }
        return CtlResult(status: exit?.shellStatus ?? 128 + SIGKILL, stdout: output, stderr: stderrSoFar.withLock { $0 })
    }
}
