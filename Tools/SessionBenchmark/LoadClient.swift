import Foundation

/// One `sequential` or `pipelined` run as bench-client reports it (its JSON line).
struct ClientRun: Codable {
    let mode: String
    let call: String
    let calls: Int
    let inflight: Int
    let seconds: Double
    let callsPerSec: Double
    let clientCpuUsPerCall: Double
    let latP50Us: Double
    let latP90Us: Double
    let latP99Us: Double
    let latMaxUs: Double
}

/// A client run plus the CPU the service and the bus spent while it ran.
struct Measurement: Codable {
    let run: ClientRun
    /// utime+stime of the service process during the run, per call, in µs.
    let serviceCpuUsPerCall: Double
    /// The same for dbus-daemon, which routes every call and reply.
    let busCpuUsPerCall: Double
}

/// The `urlsignal` run: OpenURL until the first Window1.Changed arrives at the subscriber.
struct URLSignalRun: Codable {
    let rounds: Int
    let seconds: Double
    let signalBeforeReply: Int
    let extraSignals: Int
    let signalP50Us: Double
    let signalP90Us: Double
    let signalP99Us: Double
    let signalMaxUs: Double
    let replyP50Us: Double
    let replyP90Us: Double
    let replyP99Us: Double
    let replyMaxUs: Double
}

/// Runs the compiled bench-client against the private bus.
struct LoadClient {
    let executable: String
    let busAddress: String
    let workspace: Workspace

    /// One call (one append+drop pair for `stack-pair`); returns the reply's string or path, if any.
    func once(_ arguments: [String]) throws -> String {
        try invoke(["once"] + arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A throughput run, with the CPU of `service` and of the bus sampled around it.
    func measure(_ mode: String, _ arguments: [String], service: pid_t, bus: pid_t) throws -> Measurement {
        let before = (try CPUTime.microseconds(of: service), try CPUTime.microseconds(of: bus))
        let output = try invoke([mode] + arguments)
        let after = (try CPUTime.microseconds(of: service), try CPUTime.microseconds(of: bus))
        let run: ClientRun = try decode(output)
        return Measurement(run: run,
                           serviceCpuUsPerCall: (after.0 - before.0) / Double(run.calls),
                           busCpuUsPerCall: (after.1 - before.1) / Double(run.calls))
    }

    func urlSignal(_ arguments: [String]) throws -> URLSignalRun {
        try decode(invoke(["urlsignal"] + arguments))
    }

    /// Runs bench-client; exit status 3 means an error reply, whose name is on stdout.
    private func invoke(_ arguments: [String]) throws -> String {
        let result = try Tool.run(executable, arguments, busAddress: busAddress, in: workspace)
        switch result.status {
        case 0:
            return result.stdout
        case 3:
            let name = result.stdout.split(separator: "\n").first.map(String.init) ?? "?"
            throw BenchError.errorReply(name: name, detail: result.stderr)
        default:
            throw BenchError.failed("bench-client \(arguments.first ?? "") exited \(result.status): \(result.stderr)")
        }
    }

    private func decode<T: Decodable>(_ output: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let line = output.split(separator: "\n").last else {
            throw BenchError.failed("bench-client printed nothing")
        }
        do {
            return try decoder.decode(T.self, from: Data(line.utf8))
        } catch {
            throw BenchError.failed("cannot read bench-client output '\(line)': \(error)")
        }
    }
}
