/// Command-line options of `navsession-fuzz` (see `Docs/reliability.md`).
struct FuzzOptions {
    var calls = 20_000
    var seed: UInt64 = UInt64.random(in: 1...UInt64(UInt32.max))
    var daemon: String?
    var maxRSSMegabytes = 256
    var maxDescriptors = 64
    var keepGoing = false

    static let usage = """
        usage: navsession-fuzz [--calls N] [--seed N] [--daemon PATH] [--max-rss-mb N] [--max-fds N] [--keep-going]
        Starts a private dbus-daemon (dbus/test-session.conf: dbus-daemon's compiled-in limits) and navsessiond,
        then sends N random and adversarial calls, checking the daemon after each one.
        """

    init(arguments: [String]) throws(FuzzUsageError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            func number() throws(FuzzUsageError) -> UInt64 {
                guard let text = rest.popFirst(), let value = UInt64(text) else { throw FuzzUsageError(message: "\(flag) needs a number") }
                return value
            }
            switch flag {
            case "--calls": calls = Int(clamping: try number())
            case "--seed": seed = try number()
            case "--max-rss-mb": maxRSSMegabytes = Int(clamping: try number())
            case "--max-fds": maxDescriptors = Int(clamping: try number())
            case "--keep-going": keepGoing = true
            case "--daemon":
                guard let path = rest.popFirst() else { throw FuzzUsageError(message: "--daemon needs a path") }
                daemon = path
            default: throw FuzzUsageError(message: "unknown option \(flag)")
            }
        }
    }
}

struct FuzzUsageError: Error {
    var message: String
}
