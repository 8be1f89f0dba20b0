import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Extra helpers for the service's integration tests.
extension DaemonFixture {
    static let sessionInterface = "org.navsession.Session1"
    static let windowInterface = "org.navsession.Window1"
    static let applicationPath = "/org/navsession/Demo"

    func session(_ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await call(Self.session, Self.sessionInterface, member, arguments)
    }

    /// A property's value (unwrapped from its variant) via Properties.Get.
    func property(_ path: String, _ interface: String, _ name: String) async throws -> Value {
        let reply = try await bus.call(
            destination: try BusName(Self.name), path: try ObjectPath(path), interface: .properties,
            member: try MemberName("Get"), arguments: [.string(interface), .string(name)],
            timeout: Liveness.bound(.seconds(10)))
        return try #require(reply.first?.variantValue, "Get \(name): \(reply)")
    }

    func windowProperty(_ path: String, _ name: String) async throws -> Value {
        try await property(path, Self.windowInterface, name)
    }

    /// `dbus-send --print-reply=literal` of a Window1 method on `window` (arguments in dbus-send's `type:value` form).
    func dbusSend(_ window: String, _ member: String, _ arguments: [String] = []) async throws -> ToolResult {
        try await run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(Self.name)", window,
                          "\(Self.windowInterface).\(member)"] + arguments)
    }

    /// `gdbus call` of a Window1 method on `window` (arguments in GVariant text form).
    func gdbus(_ window: String, _ member: String, _ arguments: [String] = []) async throws -> ToolResult {
        try await run(
            "gdbus", ["call", "--session", "--dest", Self.name, "--object-path", window,
                      "--method", "\(Self.windowInterface).\(member)"] + arguments)
    }

    /// `gdbus call` of a Session1 method (arguments in GVariant text form).
    func gdbusSession(_ member: String, _ arguments: [String] = []) async throws -> ToolResult {
        try await run(
            "gdbus", ["call", "--session", "--dest", Self.name, "--object-path", Self.session,
                      "--method", "org.navsession.Session1." + member] + arguments)
    }

    /// `dbus-send` of a Window1 method: the reply's version, or nil with the error text.
    func dbusSendVersion(_ window: String, _ member: String, _ arguments: [String] = []) async throws
        -> (version: UInt64?, error: String)
    {
        let result = try await dbusSend(window, member, arguments)
        let words = result.stdout.split(whereSeparator: \.isWhitespace)
        return (result.status == 0 ? words.last.flatMap { UInt64($0) } : nil, result.stderr)
    }

    /// `GetRoutes` as `"<style> <screen>"` lines, e.g. `["push detail", "sheet editor"]`.
    func routeSummaries(_ window: String) async throws -> [String] {
        let text = try await self.window(window, "GetRoutes").first?.string
        return (try json(text) as? [[String: Any]] ?? []).compactMap { route in
            (route["style"] as? String).map { "\($0) \(route["screen"] as? String ?? "")" }
        }
    }

    /// Version after a command reply.
    func version(_ path: String) async throws -> UInt64 {
        try #require(try await windowProperty(path, "Version").uint64)
    }

    /// Logs the main window in (switches to the `main` state).
    @discardableResult
    func logIn(_ window: String) async throws -> UInt64 {
        try #require(try await self.window(window, "SwitchModel", [.string("main"), .noParams]).first?.uint64)
    }

    /// A subscription to signals; installed before it returns, so nothing emitted afterwards is missed.
    func signals(
        path: String? = nil, namespace: String? = nil, interface: InterfaceName, member: String? = nil
    ) async throws -> AsyncStream<Signal> {
        try await bus.signals(
            matching: MatchRule(
                path: try path.map { try ObjectPath($0) }, pathNamespace: try namespace.map { try ObjectPath($0) },
                interface: interface, member: try member.map { try MemberName($0) }))
    }

    /// The D-Bus error `body` throws; records an issue (and returns nil) when it succeeds.
    func error(_ body: () async throws -> [Value]) async -> BusError? {
        let (error, unexpected) = await thrownError(BusError.self, body)
        if let unexpected { Issue.record(Comment(rawValue: unexpected)) }
        return error
    }

    /// The model snapshot entries of the window's GetState JSON.
    func models(_ window: String) async throws -> [[String: Any]] {
        let text = try #require(try await self.window(window, "GetState").first?.string)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["models"] as? [[String: Any]])
    }

    /// The id of the first model in GetState whose `key` equals `value`.
    func modelID(_ window: String, where key: String, is value: String) async throws -> UInt64 {
        let model = try #require(try await models(window).first { ($0[key] as? String) == value }, "no model with \(key)=\(value)")
        return try #require((model["id"] as? NSNumber)?.uint64Value)
    }
}

/// Elements of `stream` up to and including the first that matches `last`, or a thrown timeout after the
/// liveness bound of `timeout` (``Liveness/bound(_:)``).
func collect<Element: Sendable>(
    _ stream: AsyncStream<Element>, timeout: Duration = .seconds(10), until last: @escaping @Sendable (Element) -> Bool
) async throws -> [Element] {
    let bound = Liveness.bound(timeout)
    // One deadline for the whole collection (AsyncStream.first(within:)), not a sleep of its own.
    let collected = await AsyncStream<[Element]>.racing([{
        var seen: [Element] = []
        for await element in stream {
            seen.append(element)
            if last(element) { return seen }
        }
        return nil
    }]).first(within: bound)
    return try #require(collected, "no terminating element within \(bound)")
}

/// The first `count` elements of `stream`, or a thrown timeout.
func take<Element: Sendable>(_ count: Int, of stream: AsyncStream<Element>, timeout: Duration = .seconds(10)) async throws
    -> [Element]
{
    let counter = Counter()
    return try await collect(stream, timeout: timeout) { _ in counter.next() >= count }
}

/// A tiny thread-safe counter for `take`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

extension Value {
    /// The entries of an `a{sv}` or `a{ss}` value keyed by their string keys.
    var keyedEntries: [String: Value] {
        var result: [String: Value] = [:]
        for entry in dictionaryEntries ?? [] {
            if let key = entry.key.string { result[key] = entry.value.variantValue ?? entry.value }
        }
        return result
    }

    static let noPlatformData = Value.dictionary(key: .string, value: .variant, [])

    static func path(_ text: String) throws -> Value { .objectPath(try ObjectPath(text)) }
}

extension Signal {
    var memberName: String { member.rawValue }
}

/// Parses a JSON string into Foundation objects.
func json(_ text: String?) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(try #require(text).utf8), options: [.fragmentsAllowed])
}
