import Foundation

/// `dbus-monitor --profile` on a bus: every message the bus routes, in routing order, one line each, split at
/// its tabs: kind (`sig`, `mc`, `mr`, `err`), timestamp, serial, sender, destination, then path, interface and
/// member (or, for a reply, the serial replied to).
public final class BusMonitor: Sendable {
    /// The lines from the moment ``start(address:)`` returned.
    public let lines: AsyncStream<[String]>
    private let process: ChildProcess

    private init(process: ChildProcess, lines: AsyncStream<[String]>) {
        self.process = process
        self.lines = lines
    }

    /// Starts the monitor and returns once it sees every message (a monitor loses its unique name when it
    /// starts monitoring: that `NameLost` is the sign); nil when that does not happen within
    /// `Liveness.bound(.seconds(10))`.
    ///
    /// With `bodies`, `dbus-monitor`'s default output instead: each message a header line (`signal time=…
    /// sender=… -> destination=… serial=… path=…; interface=…; member=…`) then its arguments, one line each
    /// (each yielded as one element); `rules` are match rules narrowing what it shows (the monitor's own
    /// `NameLost` is always shown: it is the sign above).
    public static func start(address: String, bodies: Bool = false, rules: [String] = []) async throws -> BusMonitor? {
        let output = Pipe()
        let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(devNull) }
        let ruleArguments = rules.isEmpty ? [] : rules + ["type='signal',member='NameLost'"]
        let process = try ChildProcess.spawn(
            ["dbus-monitor", "--address", address] + (bodies ? [] : ["--profile"]) + ruleArguments,
            environment: ["PATH": "/usr/bin:/bin"],
            stdout: output.fileHandleForWriting.fileDescriptor, stderr: devNull)
        try output.fileHandleForWriting.close()
        let (lines, continuation) = AsyncStream<[String]>.makeStream()
        Thread.detachNewThread {
            var pending = ""
            PipeReader.forEachChunk(output.fileHandleForReading) { chunk in
                pending += String(decoding: chunk, as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    let line = pending[..<end]
                    continuation.yield(bodies ? [String(line)] : line.split(separator: "\t").map(String.init))
                    pending = String(pending[pending.index(after: end)...])
                }
            }
            continuation.finish()
        }
        let monitor = BusMonitor(process: process, lines: lines)
        let ready: @Sendable ([String]) -> Bool = { line in
            bodies ? line.first?.hasSuffix("member=NameLost") == true : line.last == "NameLost"
        }
        guard await lines.first(within: Liveness.bound(.seconds(10)), where: ready) != nil else {
            monitor.stop()
            return nil
        }
        return monitor
    }

    /// Stops `dbus-monitor` (SIGTERM, without waiting); ``lines`` ends. Idempotent.
    public func stop() {
        process.signal(SIGTERM)
    }
}
