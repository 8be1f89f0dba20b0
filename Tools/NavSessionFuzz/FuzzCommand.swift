import ArgumentParser
import DBusKit
import Foundation

/// `navsession-fuzz`: a seeded D-Bus fuzzer for `navsessiond` (Docs/fuzzing-dbus.md).
struct FuzzCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navsession-fuzz",
        abstract: "Fuzzes navsessiond over D-Bus: random, adversarial and valid calls to every method and property.",
        discussion: "Prints seed=N first; exit status 0 without failures, 1 with failures, 2 when it cannot start.")

    @Option(help: "The seed (default: random). The same seed and options replay the same calls.")
    var seed: UInt64?

    @Option(help: "How many calls to make.")
    var calls: Int = 10_000

    @Flag(help: "Count failures and go on (restarting a daemon the fuzzer started) instead of stopping at the first.")
    var keepGoing = false

    @Option(help: "Attach to this bus instead of starting one (needs --name and --pid).")
    var bus: String?

    @Option(help: "The daemon's bus name.")
    var name: String = "org.navsession.Demo"

    @Option(help: "The daemon's process id (with --bus).")
    var pid: Int32?

    @Option(help: "The navsessiond binary (default: the one next to this binary).")
    var daemon: String?

    @Option(help: "The bus configuration for the private dbus-daemon (default: the repository's dbus/test-session.conf).")
    var config: String?

    @Option(help: "The repository root, for Docs/dbus-api.md and dbus/*.xml (default: where this was built from).")
    var repository: String?

    @Option(help: "Seconds to wait for each reply.")
    var timeout: Double = 20

    @Option(help: "The daemon's largest allowed VmRSS, in MiB.")
    var maxRssMib: Int = 200

    @Option(help: "Kill a daemon the fuzzer started when its VmRSS passes this many MiB during a call (protects the machine).")
    var killRssMib: Int = 2048

    @Option(help: "The daemon's largest allowed number of open descriptors.")
    var maxFds: Int = 64

    @Option(help: "Sample the daemon's RSS and descriptors every N calls.")
    var sampleEvery: Int = 1

    @Option(help: "The longest single string argument, in bytes.")
    var maxStringBytes: Int = 8 << 20

    @Option(help: "The largest call body, in bytes (dbus-daemon drops senders of messages over 32 MiB).")
    var maxMessageBytes: Int = 28 << 20

    @Option(help: "The longest array or dictionary argument.")
    var maxArray: Int = 70_000

    @Option(help: "Dismiss windows when more than this many are open.")
    var maxWindows: Int = 8

    @Option(help: "The share of calls sent from a client that vanishes without waiting for the reply.")
    var vanish: Double = 0.02

    @Option(help: "The share of calls whose body may take up to --max-message-bytes (with one long string).")
    var huge: Double = 0.005

    @Option(help: "Print a progress line to stderr every N calls (0: never).")
    var progress: Int = 0

    @Option(help: "How many failures to report in full with --keep-going (all are counted and grouped).")
    var printFailures: Int = 20

    @Flag(help: "Run a guard provider that answers at random, slowly or never, registered for every declared guard, and a second connection that owns marks and sometimes leaves; check at the end that every window still takes a change (Docs/fuzzing-dbus.md).")
    var misbehavingProvider = false

    @Flag(help: "Print the documented error names the replies are checked against, and exit.")
    var listErrors = false

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func validate() throws {
        if bus != nil && pid == nil { throw ArgumentParser.ValidationError("--bus needs --pid (and --name when it is not org.navsession.Demo)") }
        if pid != nil && bus == nil { throw ArgumentParser.ValidationError("--pid needs --bus") }
        guard calls >= 0, timeout > 0, maxMessageBytes > 0, maxMessageBytes < 31 << 20 else {
            throw ArgumentParser.ValidationError("--calls must be ≥ 0, --timeout > 0, --max-message-bytes between 1 and 31 MiB")
        }
    }

    func run() async throws {
        let seed = self.seed ?? UInt64.random(in: 0 ... .max)
        print("seed=\(seed)")
        fflush(nil)
        let runner = FuzzRun(command: self, seed: seed)
        let code = await runner.run()
        throw ExitCode(code)
    }

    /// The options that change which calls are made, for the reproduce line.
    var generationFlags: [String] {
        var flags: [String] = []
        if maxStringBytes != 8 << 20 { flags += ["--max-string-bytes", String(maxStringBytes)] }
        if maxMessageBytes != 28 << 20 { flags += ["--max-message-bytes", String(maxMessageBytes)] }
        if maxArray != 70_000 { flags += ["--max-array", String(maxArray)] }
        if maxWindows != 8 { flags += ["--max-windows", String(maxWindows)] }
        if vanish != 0.02 { flags += ["--vanish", String(vanish)] }
        if huge != 0.005 { flags += ["--huge", String(huge)] }
        if misbehavingProvider { flags.append("--misbehaving-provider") }
        if keepGoing { flags.append("--keep-going") }
        return flags
    }
}
