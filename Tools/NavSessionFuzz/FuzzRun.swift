import DBusKit
import Foundation

/// Sets up one run (docs, vocabulary, bus, daemon, introspection), runs the ``Fuzzer`` and tears down.
struct FuzzRun {
    let command: FuzzCommand
    let seed: UInt64

    /// The exit status: 0 no failures, 1 failures, 2 the run could not start.
    func run() async -> Int32 {
        let repository = command.repository.map { URL(fileURLWithPath: $0) } ?? FuzzCommand.repositoryRoot
        let catalog: ErrorCatalog
        do {
            catalog = try ErrorCatalog.load(repository: repository)
        } catch {
            print("navsession-fuzz: cannot read the documented error names under \(repository.path): \(error)")
            return 2
        }
        if command.listErrors {
            print(catalog.names.sorted().joined(separator: "\n"))
            return 0
        }
        let daemon = command.daemon.map { URL(fileURLWithPath: $0) } ?? Self.siblingDaemon()
        let vocabulary = Self.vocabulary(from: daemon) ?? Vocabulary()
        var target: FuzzTarget?
        do {
            let name = try BusName(command.name)
            let timeout = Duration.milliseconds(Int64(command.timeout * 1000))
            let started: FuzzTarget
            if let address = command.bus, let pid = command.pid {
                started = FuzzTarget(attachingTo: address, name: name, pid: pid)
            } else {
                guard FileManager.default.isExecutableFile(atPath: daemon.path) else {
                    throw FuzzSetupError("no navsessiond at \(daemon.path) (build it, or pass --daemon PATH)")
                }
                let config = command.config ?? repository.appendingPathComponent("dbus/test-session.conf").path
                started = try FuzzTarget(configFile: config, daemon: daemon, name: name)
            }
            target = started
            let client = try await Bus.connect(.address(started.address))
            let watch = try await NameWatch(bus: client, name: name)
            let owner = started.launched
                ? try await started.startDaemon(waitingOn: client, timeout: .seconds(30))
                : try await started.currentOwner(on: client)
            let model = SessionModel()
            let objects = try await introspect(client: client, target: started, model: model, vocabulary: vocabulary, timeout: timeout)
            let options = self.options(timeout: timeout)
            let strings = StringGenerator(maximumBytes: command.maxStringBytes)
            let urls = URLGenerator(vocabulary: vocabulary, strings: strings)
            let factory = ArgumentFactory(
                vocabulary: vocabulary, strings: strings, urls: urls,
                json: JSONGenerator(vocabulary: vocabulary, strings: strings, urls: urls),
                values: ValueGenerator(strings: strings, descriptors: DescriptorPool(), maximumArrayLength: command.maxArray))
            let generator = CallGenerator(
                seed: seed, objects: objects, model: model, factory: factory,
                settings: .init(
                    maximumMessageBytes: command.maxMessageBytes, maximumWindows: command.maxWindows,
                    vanishProbability: command.vanish, hugeShare: command.huge,
                    guardShare: command.misbehavingProvider ? 0.2 : 0))
            var provider: MisbehavingProvider?
            if command.misbehavingProvider {
                let declared = try await Self.guards(client: client, name: name, timeout: timeout)
                guard !declared.isEmpty else { throw FuzzSetupError("--misbehaving-provider: the manifest declares no guard") }
                let longest = vocabulary.guards.map(\.timeoutMs).max() ?? 10_000
                let made = MisbehavingProvider(
                    address: started.address, destination: name, guards: declared,
                    deadline: .milliseconds(longest), seed: seed)
                try await made.connect()
                provider = made
            }
            let methods = objects.reduce(0) { $0 + $1.interfaces.reduce(0) { $0 + $1.methods.count } }
            print(
                "navsession-fuzz: \(command.calls) calls to \(name) (pid \(started.pid)) on \(started.address);"
                    + " \(objects.count) objects, \(methods) methods introspected; \(catalog.names.count) documented error names;"
                    + " \(vocabulary.screens.count) screens, \(vocabulary.routes.count) deep-link routes declared")
            fflush(nil)
            let clock = ContinuousClock.now
            let fuzzer = Fuzzer(
                options: options, target: started, catalog: catalog, generator: generator, client: client, watch: watch,
                owner: owner, provider: provider)
            let statistics = await fuzzer.run()
            print(statistics.summary(seconds: (ContinuousClock.now - clock) / .seconds(1)))
            if statistics.failures > 0, let directory = started.stateDirectory?.deletingLastPathComponent() {
                print("  the daemon's state directory and stderr are kept in \(directory.path)")
            }
            await client.close()
            await started.shutdown(keepFiles: statistics.failures > 0)
            return statistics.failures > 0 ? 1 : 0
        } catch {
            print("navsession-fuzz: \(error)" + (target?.stderrTail() ?? ""))
            await target?.shutdown(keepFiles: false)
            return 2
        }
    }

    /// The guards the daemon declares (`Session1.ListGuards`), in name order.
    static func guards(client: Bus, name: BusName, timeout: Duration) async throws -> [String] {
        let reply = try await client.call(
            destination: name, path: try ObjectPath("/org/navsession/Session1"),
            interface: try InterfaceName("org.navsession.Session1"), member: try MemberName("ListGuards"),
            timeout: timeout)
        guard case .dictionary(_, _, let entries)? = reply.first else { return [] }
        return entries.compactMap(\.key.string).sorted()
    }

    private func options(timeout: Duration) -> FuzzOptions {
        FuzzOptions(
            seed: seed, calls: command.calls, keepGoing: command.keepGoing, timeout: timeout,
            maximumResidentBytes: command.maxRssMib << 20, killResidentBytes: command.killRssMib << 20, maximumDescriptors: command.maxFds,
            sampleEvery: command.sampleEvery, maximumStringBytes: command.maxStringBytes,
            maximumMessageBytes: command.maxMessageBytes, maximumArrayLength: command.maxArray,
            maximumWindows: command.maxWindows, vanishProbability: command.vanish, progressEvery: command.progress,
            printedFailures: command.printFailures, misbehavingProvider: command.misbehavingProvider,
            generationFlags: command.generationFlags)
    }

    /// Walks the daemon's objects; opens a window first when none exists, so Window1 is introspected too.
    private func introspect(
        client: Bus, target: FuzzTarget, model: SessionModel, vocabulary: Vocabulary, timeout: Duration
    ) async throws -> [ObjectDescription] {
        var objects = try await ObjectWalker.walk(bus: client, destination: target.name, timeout: timeout)
        if !objects.contains(where: { $0.path.rawValue.contains("/window/") && $0.hasOwnInterfaces }),
           let session = objects.first(where: { $0.interface(named: "org.navsession.Session1") != nil }) {
            let reply = try await client.call(
                destination: target.name, path: session.path, interface: try InterfaceName("org.navsession.Session1"),
                member: try MemberName("OpenWindow"),
                arguments: [.string(vocabulary.scenes.first ?? "main"), .dictionary(key: .string, value: .string, [])],
                timeout: timeout)
            if let path = reply.first?.objectPath { model.opened(path) }
            objects = try await ObjectWalker.walk(bus: client, destination: target.name, timeout: timeout)
        }
        for object in objects where object.path.rawValue.contains("/window/") && object.hasOwnInterfaces {
            model.opened(object.path)
        }
        return objects
    }

    /// `navsessiond` next to this executable (both are products of the same package build).
    static func siblingDaemon() -> URL {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("navsessiond")
    }

    /// The daemon's manifest (`--print-demo-manifest`), parsed; nil when it cannot be run or read.
    static func vocabulary(from daemon: URL) -> Vocabulary? {
        guard FileManager.default.isExecutableFile(atPath: daemon.path) else { return nil }
        let process = Process()
        process.executableURL = daemon
        process.arguments = ["--print-demo-manifest"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Vocabulary(manifestJSON: String(decoding: data, as: UTF8.self))
    }
}
