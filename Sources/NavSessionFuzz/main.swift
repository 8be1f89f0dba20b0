import DBusKit
import DBusTestSupport
import Foundation

// navsession-fuzz: see FuzzOptions.usage and Docs/reliability.md.
let options: FuzzOptions
do {
    options = try FuzzOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("navsession-fuzz: \(error.message)\n\(FuzzOptions.usage)\n".utf8))
    exit(2)
}
print("seed=\(options.seed) calls=\(options.calls)")

func daemonBinary() -> String {
    if let path = options.daemon { return path }
    let running = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    return running.deletingLastPathComponent().appendingPathComponent("navsessiond").path
}

func fuzz() async throws -> Bool {
    let bus = try PrivateBus.start()
    defer { bus.stop() }
    let client = try await bus.connect()
    let name = try BusName("org.navsession.Demo")
    let owners = try await client.signals(
        matching: MatchRule(
            sender: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
            member: try MemberName("NameOwnerChanged"), arguments: [0: name.rawValue]))
    let state = NSTemporaryDirectory() + "navsession-fuzz-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: state) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: daemonBinary())
    process.arguments = ["--bus", bus.address, "--state-dir", state, "--log-level", "error"]
    try process.run()
    defer { kill(process.processIdentifier, SIGKILL) }
    if try await !client.nameHasOwner(name) {
        guard await owners.first(within: .seconds(30), where: { $0.arguments.count == 3 && $0.arguments[2].string != "" }) != nil else {
            print("FAILURE: navsessiond did not take its name within 30 s")
            return false
        }
    }
    let fuzzer = Fuzzer(
        client: client, bus: bus, daemonPID: process.processIdentifier, name: name, options: options,
        documented: Fuzzer.documentedErrorNames(root: PrivateBus.repositoryRoot))
    let flag = fuzzer.nameLost
    let watcher = Task {
        for await signal in owners where signal.arguments.count == 3 && signal.arguments[2].string == "" { flag.set() }
    }
    defer { watcher.cancel() }
    let started = ContinuousClock.now
    let passed = try await fuzzer.run()
    let seconds = Double((ContinuousClock.now - started).components.seconds)
    print("calls=\(options.calls) failures=\(fuzzer.failures) seconds=\(Int(seconds)) maxRSS=\(fuzzer.maxRSS)MiB maxFDs=\(fuzzer.maxFDs)")
    for (reply, count) in fuzzer.replies.sorted(by: { $0.value > $1.value }) { print("  \(count)\t\(reply)") }
    print(passed ? "PASS seed=\(options.seed)" : "FAIL seed=\(options.seed)")
    return passed
}

let passed: Bool
do {
    passed = try await fuzz()
} catch {
    print("FAILURE seed=\(options.seed): \(error)")
    passed = false
}
exit(passed ? 0 : 1)
