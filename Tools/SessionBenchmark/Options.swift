import Foundation

/// Command-line options. Hand-parsed so the benchmark builds without any package dependency.
struct Options {
    var sequentialCalls = 8_000
    var pipelinedCalls = 40_000
    var inflight = 64
    var warmupCalls = 2_000
    var repetitions = 11
    var urlRounds = 100
    var url = "navsession-demo://detail/42"
    var daemonPath: String?
    var daemonName = "org.navsession.Demo"
    var echoName = "org.navsession.BenchEcho"
    var floorName = "org.navsession.BenchFloor"
    var depths = [0, 100, 1_000, 10_000]
    var depthCalls = 4_000
    var windows = 256
    var callgrind = false
    var callgrindCalls = 2_000
    var tools = true
    var toolRuns = 100
    var navsessionctlPath: String?
    var benchmarksDir: String?
    var json = false
    var requireDaemon = false
    var skipDaemon = false
    var keepTemp = false

    static let usage = """
        usage: session-benchmark [options]
          --quick                 small counts (2000 sequential, 10000 pipelined, 50 URL rounds, 1 repetition,
                                  depths 0 and 1000 with 500 calls, 10 tool runs)
          --sequential N          sequential calls per target and repetition (default 8000)
          --pipelined N           pipelined calls per target and repetition (default 40000)
          --inflight K            calls in flight when pipelined (default 64)
          --repeat N              repetitions of each measurement, the targets' order reversed
                                  in every other one; each figure is its median, each ratio the
                                  median of the repetitions' ratios (default 11)
          --depths LIST           stack depths to measure the cost per call at (default 0,100,1000,10000;
                                  "" skips them)
          --depth-calls N         sequential calls per run at each depth (--repeat runs per target, interleaved)
                                  and per window count (default 4000)
          --windows N             open windows for the window-count measurement (default 256, the daemon's
                                  limit; 0 skips it)
          --callgrind             also count instructions per call under valgrind's callgrind
          --callgrind-calls N     calls counted per target under callgrind (default 10000)
          --no-tools              skip timing one call made by navsessionctl, gdbus, busctl and dbus-send
          --tool-runs N           runs of each command-line tool (default 100)
          --navsessionctl PATH    the navsessionctl to time (default: next to this executable)
          --warmup N              unmeasured sequential calls per target first (default 2000)
          --url-rounds N          OpenURL -> Changed rounds per repetition (default 100)
          --url URL               deep link to open (default navsession-demo://detail/42)
          --daemon PATH           navsessiond binary (default: next to this executable)
          --daemon-name NAME      the daemon's bus name (default org.navsession.Demo)
          --no-daemon             measure the echo service only
          --require-daemon        exit 1 if the daemon cannot be measured
          --benchmarks-dir DIR    where echo-service.c and bench-client.c are (default: found from the package)
          --json                  print one JSON object instead of the table
          --keep-temp             keep the scratch directory (bus config, logs, binaries)
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchError.failed("\(flag) needs a value") }
            return next
        }
        func count(_ flag: String, min: Int = 1) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= min, number <= 100_000_000 else {
                throw BenchError.failed("\(flag) wants a whole number >= \(min), got '\(text)'")
            }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--quick":
                options.sequentialCalls = 2_000
                options.pipelinedCalls = 10_000
                options.warmupCalls = 200
                options.urlRounds = 50
                options.repetitions = 1
                options.depths = [0, 1_000]
                options.depthCalls = 500
                options.toolRuns = 10
            case "--sequential": options.sequentialCalls = try count(flag)
            case "--pipelined": options.pipelinedCalls = try count(flag)
            case "--inflight": options.inflight = try count(flag)
            case "--repeat": options.repetitions = try count(flag)
            case "--warmup": options.warmupCalls = try count(flag, min: 0)
            case "--url-rounds": options.urlRounds = try count(flag)
            case "--depths":
                let text = try value(flag)
                options.depths = try text.split(separator: ",").map { part in
                    guard let depth = Int(part.trimmingCharacters(in: .whitespaces)), depth >= 0, depth <= 1_000_000 else {
                        throw BenchError.failed("--depths wants whole numbers >= 0 separated by commas, got '\(text)'")
                    }
                    return depth
                }
            case "--depth-calls": options.depthCalls = try count(flag)
            case "--windows": options.windows = try count(flag, min: 0)
            case "--callgrind": options.callgrind = true
            case "--callgrind-calls": options.callgrindCalls = try count(flag)
            case "--no-tools": options.tools = false
            case "--tool-runs": options.toolRuns = try count(flag)
            case "--navsessionctl": options.navsessionctlPath = try value(flag)
            case "--url": options.url = try value(flag)
            case "--daemon": options.daemonPath = try value(flag)
            case "--daemon-name": options.daemonName = try value(flag)
            case "--no-daemon": options.skipDaemon = true
            case "--require-daemon": options.requireDaemon = true
            case "--benchmarks-dir": options.benchmarksDir = try value(flag)
            case "--json": options.json = true
            case "--keep-temp": options.keepTemp = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                throw BenchError.failed("unknown option '\(flag)'\n\(usage)")
            }
        }
        return options
    }
}
