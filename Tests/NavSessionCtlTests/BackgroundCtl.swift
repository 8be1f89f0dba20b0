import DBusTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A `navsessionctl` that keeps running (e.g. `watch`) while the test acts; stderr is observable as it arrives.
final class BackgroundCtl: Sendable {
    private let process: Process
    private let stdoutPipe = Pipe()
    private let stderrChunks: AsyncStream<String>
    private let stderrSoFar = Mutex("")

    /// Starts `navsessionctl arguments…`.
    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = try Ctl.binary("navsessionctl")
        process.arguments = arguments
        process.environment = Ctl.environment()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        let errors = Pipe()
        process.standardError = errors
        let (stream, continuation) = AsyncStream<String>.makeStream()
        stderrChunks = stream
        try process.run()
        // A thread of its own reading with read(2): Foundation's readabilityHandler sometimes never delivers
        // the end of file on Linux (a test then hung until its time limit), and availableData traps on EINTR.
        let handle = errors.fileHandleForReading
        let reader = Thread {
            PipeReader.forEachChunk(handle) { continuation.yield(String(decoding: $0, as: UTF8.self)) }
            continuation.finish()
        }
        reader.start()
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
        process.interrupt()
    }

    /// Waits for the exit (killing the process after `timeout`) and returns everything it wrote.
    func finish(timeout: TimeInterval = 30) async -> CtlResult {
        // SIGKILL, not SIGTERM: a tool that hangs may be one that no longer hears SIGTERM, which is what some
        // tests check, and the suite must end either way.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        let output = await Ctl.readAll(stdoutPipe.fileHandleForReading)
        let status = await Ctl.waitForExit(process)
        for await chunk in stderrChunks { stderrSoFar.withLock { $0 += chunk } }
        return CtlResult(status: status, stdout: output, stderr: stderrSoFar.withLock { $0 })
    }
}
