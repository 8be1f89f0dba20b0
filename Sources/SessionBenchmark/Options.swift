import Foundation

/// Command-line options. Hand-parsed so the benchmark builds without any package dependency.
struct Options {
    var sequentialCalls = 20_000
    var pipelinedCalls = 100_000
    var inflight = 32
    var warmupCalls = 2_000
    var repetitions = 3
    var urlRounds = 200
    var url = "navsession-demo://detail/42"
    var daemonPath: String?
    var daemonName = "org.navsession.Demo"
    var echoName = "org.navsession.BenchEcho"
    var benchmarksDir: String?
    var json = false
    var requireDaemon = false
    var skipDaemon = false
    var keepTemp = false

    static let usage = """
        usage: session-benchmark [options]
          --quick                 small counts (2000 sequential, 10000 pipelined, 50 URL rounds, 1 repetition)
          --sequential N          sequential calls per target (default 20000)
          --pipelined N           pipelined calls per target (default 100000)
          --inflight K            calls in flight when pipelined (default 32)
          --repeat N              repetitions of each measurement; the median is reported (default 3)
          --warmup N              unmeasured sequential calls per target first (default 2000)
          --url-rounds N          OpenURL -> Changed rounds (default 200)
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
            case "--sequential": options.sequentialCalls = try count(flag)
            case "--pipelined": options.pipelinedCalls = try count(flag)
            case "--inflight": options.inflight = try count(flag)
            case "--repeat": options.repetitions = try count(flag)
            case "--warmup": options.warmupCalls = try count(flag, min: 0)
            case "--url-rounds": options.urlRounds = try count(flag)
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
