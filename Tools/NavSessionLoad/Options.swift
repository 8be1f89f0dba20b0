import Foundation

/// Command-line options. `navsession-load [fault] [options]`; `worker` is the client mode the coordinator
/// starts (not for direct use).
struct Options {
    enum Mode: String {
        case load, fault, worker
    }

    var mode = Mode.load
    var clients = 8
    var commands = 10_000
    var kills = 50
    /// Fault mode: `navsessiond --replace` takeovers on the same state directory.
    var replaces = 0
    /// Fault mode: second navsessiond starts on the running daemon's state directory.
    var secondDaemons = 0
    /// Fault mode: the daemon is killed after a random number of changes in 1...this since its restart.
    var changesBetweenKills = 400
    var seed = UInt64.random(in: 1...UInt64(UInt32.max))
    var daemonPath: String?
    var keepTemp = false
    /// Fault mode, negative control: before each restart, drop the journal's last line when it is a change
    /// the subscriber saw (a daemon that lost a journaled change); the run must then fail.
    var injectLoss = false
    /// Bound on the whole client phase, in seconds.
    var timeout = 3600.0

    // Worker mode.
    var bus = ""
    var client = 0
    var ownWindow = ""
    var sharedMain = ""
    var sharedWaiting = ""
    var output = ""
    var untilStop = false

    static let usage = """
        usage: navsession-load [options]              8 client processes x 10000 commands, then verify
               navsession-load fault [options]        the same load while the daemon is SIGKILLed --kills times,
                                                      taken over by --replace --replaces times, and
                                                      joined by a second daemon --second-daemons times
        options:
          --clients N        client processes (default 8)
          --commands N       commands per client in load mode (default 10000)
          --kills N          fault mode: SIGKILLs of the daemon (default 50, or 0 when --replaces or
                             --second-daemons is given)
          --replaces N       fault mode: start navsessiond --replace on the same state directory and name;
                             the running daemon hands over and exits (default 0)
          --second-daemons N fault mode: start a second navsessiond on the same state directory, alternately
                             for the same bus name and with --name \(SecondDaemonStart.otherName); it must
                             refuse to start; then the first is SIGKILLed and restarted (default 0)
          --changes-between-kills N
                             fault mode: the next fault after a random 1...N changes since the last (default 400)
          --seed N           seed of the command mix and kill moments (default random; printed)
          --daemon PATH      navsessiond (default: next to this executable)
          --timeout SECONDS  bound on the client phase (default 3600)
          --keep-temp        keep the scratch directory (state, logs, client records)
          --inject-loss      fault mode, negative control: drop the journal's last signalled change
                             before each restart after a --kills kill; the run must report the loss and fail
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        var killsGiven = false
        if let first = rest.first, let mode = Mode(rawValue: first) {
            options.mode = mode
            rest = rest.dropFirst()
        }
        func value(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw LoadError("\(flag) needs a value\n\(usage)") }
            return value
        }
        func number<T: FixedWidthInteger>(_ flag: String, _ type: T.Type, minimum: T) throws -> T {
            let text = try value(flag)
            guard let parsed = T(text), parsed >= minimum else { throw LoadError("\(flag): '\(text)' is not a number ≥ \(minimum)") }
            return parsed
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--clients": options.clients = try number(flag, Int.self, minimum: 1)
            case "--commands": options.commands = try number(flag, Int.self, minimum: 1)
            case "--kills":
                options.kills = try number(flag, Int.self, minimum: 0)
                killsGiven = true
            case "--replaces": options.replaces = try number(flag, Int.self, minimum: 0)
            case "--second-daemons": options.secondDaemons = try number(flag, Int.self, minimum: 0)
            case "--changes-between-kills": options.changesBetweenKills = try number(flag, Int.self, minimum: 1)
            case "--seed": options.seed = try number(flag, UInt64.self, minimum: 0)
            case "--daemon": options.daemonPath = try value(flag)
            case "--keep-temp": options.keepTemp = true
            case "--inject-loss": options.injectLoss = true
            case "--timeout":
                let text = try value(flag)
                guard let seconds = Double(text), seconds > 0 else { throw LoadError("--timeout: '\(text)' is not a positive number") }
                options.timeout = seconds
            case "--bus": options.bus = try value(flag)
            case "--client": options.client = try number(flag, Int.self, minimum: 0)
            case "--own": options.ownWindow = try value(flag)
            case "--main": options.sharedMain = try value(flag)
            case "--shared": options.sharedWaiting = try value(flag)
            case "--out": options.output = try value(flag)
            case "--until-stop": options.untilStop = true
            case "-h", "--help": throw LoadError(usage)
            default: throw LoadError("unknown option '\(flag)'\n\(usage)")
            }
        }
        if !killsGiven, options.replaces + options.secondDaemons > 0 { options.kills = 0 }
        return options
    }
}
