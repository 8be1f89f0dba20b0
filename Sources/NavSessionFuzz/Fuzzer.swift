import DBusKit
import DBusTestSupport
import Foundation
import Synchronization

/// Drives one running navsessiond with random and adversarial calls and checks it after each one.
final class Fuzzer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let client: Bus
    let bus: PrivateBus
    let daemonPID: Int32
    let name: BusName
    let options: FuzzOptions
    var generator: ValueGenerator
    var targets: [Target] = []
    var windowTargets: [Target] = []
    var documented: Set<String>
    var replies: [String: Int] = [:]
    var failures = 0
    var maxRSS = 0
    var maxFDs = 0
    let nameLost = NameLossFlag()

    init(client: Bus, bus: PrivateBus, daemonPID: Int32, name: BusName, options: FuzzOptions, documented: Set<String>) {
        self.client = client
        self.bus = bus
        self.daemonPID = daemonPID
        self.name = name
        self.options = options
        self.documented = documented
        generator = ValueGenerator(seed: options.seed, descriptor: open("/dev/null", O_RDONLY))
    }

    /// Every error name the documents list, plus the standard ones a service may send.
    static func documentedErrorNames(root: URL) -> Set<String> {
        var names: Set<String> = [
            "org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
            "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
            "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly",
            "org.freedesktop.DBus.Error.LimitsExceeded", "org.freedesktop.DBus.Error.AccessDenied",
            "org.freedesktop.DBus.Error.NotSupported",
        ]
        let files = ["Docs/dbus-api.md", "Docs/manifest.md", "dbus/org.navsession.Session1.xml", "dbus/org.navsession.Window1.xml"]
        let pattern = /org\.(navsession|freedesktop\.DBus)\.Error\.[A-Za-z]+/
        for file in files {
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
            for match in text.matches(of: pattern) { names.insert(String(match.output.0)) }
        }
        names.remove("org.freedesktop.DBus.Error.Failed")
        return names
    }

    func introspect(_ path: String) async throws -> (targets: [Target], children: [String]) {
        let reply = try await client.call(
            destination: name, path: try ObjectPath(path), interface: .introspectable,
            member: try MemberName("Introspect"))
        return Target.parse(reply.first?.string ?? "", path: path)
    }

    /// Finds every object and member of the daemon (a window is opened first so Window1 is seen).
    func discover() async throws {
        _ = try await client.call(
            destination: name, path: try ObjectPath("/org/navsession/Session1"), interface: try InterfaceName("org.navsession.Session1"),
            member: try MemberName("OpenWindow"), arguments: [.string("main"), .dictionary(key: .string, value: .string, [])])
        var pending = ["/"]
        while let path = pending.popLast() {
            let found = try await introspect(path)
            for target in found.targets where !target.interface.hasPrefix("org.freedesktop.DBus.Peer") {
                if path.contains("/window/") { windowTargets.append(target) } else { targets.append(target) }
            }
            for child in found.children where !(path.contains("/window") && child != found.children.first) {
                pending.append(path == "/" ? "/" + child : path + "/" + child)
            }
        }
    }

    /// One random call; returns a failure description, or nil.
    func step(_ index: Int) async -> String? {
        var target: Target
        if !windowTargets.isEmpty, generator.random.chance(0.6) {
            target = generator.random.pick(windowTargets)
            target.path = generator.random.chance(0.85) ? generator.windows.last ?? target.path : generator.random.pick(generator.windows)
        } else {
            target = generator.random.pick(targets)
        }
        var interface = target.interface
        var member = target.member
        var arguments: [Value]
        switch target.kind {
        case .method(let types):
            arguments = generator.arguments(for: types)
        case .property(let type, _):
            interface = "org.freedesktop.DBus.Properties"
            switch Int.random(in: 0..<4, using: &generator.random) {
            case 0: member = "GetAll"; arguments = [.string(target.interface)]
            case 1: member = "Set"; arguments = [.string(target.interface), .string(target.member), .variant(generator.value(type))]
            default: member = "Get"; arguments = [.string(generator.random.chance(0.9) ? target.interface : "x.y"), .string(target.member)]
            }
        }
        if generator.random.chance(0.01) { member = "NoSuchMember" }
        if generator.random.chance(0.005) { await vanishingCall(target.path, interface, member, arguments); return nil }
        let described = "\(interface).\(member) at \(target.path) with \(Self.describe(arguments))"
        do {
            let reply = try await client.call(
                destination: name, path: try ObjectPath(target.path), interface: try InterfaceName(interface),
                member: try MemberName(member), arguments: arguments, timeout: .seconds(30))
            replies["success", default: 0] += 1
            if case .objectPath(let path) = reply.first, path.rawValue.contains("/window/"),
                !generator.windows.contains(path.rawValue)
            {
                generator.windows.append(path.rawValue)
            }
        } catch let error as BusError {
            replies[error.name.rawValue, default: 0] += 1
            if !documented.contains(error.name.rawValue) { return "undocumented or fatal error \(error) for \(described)" }
        } catch {
            return "the call failed without a reply (\(error)) for \(described)"
        }
        if nameLost.isSet || kill(daemonPID, 0) != 0 { return "the daemon lost its name or died after \(described)" }
        if index % 25 == 0 { return checkResources(after: described) }
        return nil
    }

    /// A second client sends a call and disconnects without waiting for the reply.
    func vanishingCall(_ path: String, _ interface: String, _ member: String, _ arguments: [Value]) async {
        guard let other = try? await bus.connect(), let objectPath = try? ObjectPath(path),
            let interfaceName = try? InterfaceName(interface), let memberName = try? MemberName(member)
        else { return }
        let destination = name
        let call = Task { @Sendable in
            _ = try? await other.call(
                destination: destination, path: objectPath, interface: interfaceName, member: memberName, arguments: arguments)
        }
        await other.close()
        _ = await call.value
        replies["vanished", default: 0] += 1
    }

    func checkResources(after described: String) -> String? {
        let status = (try? String(contentsOfFile: "/proc/\(daemonPID)/status", encoding: .utf8)) ?? ""
        let rssKB = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemonPID)/fd").count) ?? 0
        maxRSS = max(maxRSS, rssKB / 1024)
        maxFDs = max(maxFDs, fds)
        if rssKB / 1024 > options.maxRSSMegabytes { return "daemon RSS \(rssKB / 1024) MiB over the bound after \(described)" }
        if fds > options.maxDescriptors { return "daemon holds \(fds) descriptors after \(described)" }
        return nil
    }

    /// Keeps the session small: dismisses all but the first few windows.
    func prune() async {
        guard let path = try? ObjectPath("/org/navsession/Session1"), let interface = try? InterfaceName("org.navsession.Session1"),
            let list = try? await client.call(destination: name, path: path, interface: interface, member: try MemberName("ListWindows")),
            let windows = list.first?.arrayElements
        else { return }
        for window in windows.dropFirst(4) {
            _ = try? await client.call(destination: name, path: path, interface: interface, member: try MemberName("DismissWindow"), arguments: [window])
        }
        generator.windows = Array(generator.windows.suffix(12))
    }

    static func describe(_ values: [Value]) -> String {
        let text = values.map { "\($0)" }.joined(separator: ", ")
        return text.count > 300 ? String(text.prefix(300)) + "… (\(text.utf8.count) bytes)" : text
    }

    func run() async throws -> Bool {
        try await discover()
        for index in 1...options.calls {
            if index % 500 == 0 { await prune() }
            if let failure = await step(index) {
                failures += 1
                print("FAILURE seed=\(options.seed) call=\(index): \(failure)")
                if !options.keepGoing { return false }
            }
        }
        _ = checkResources(after: "the run")
        return failures == 0
    }
}

/// Set once the daemon's name loses its owner (NameOwnerChanged).
final class NameLossFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
