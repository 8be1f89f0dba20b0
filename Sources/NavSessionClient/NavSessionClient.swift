import DBusKit
import NavSessionInterface
import FoundationEssentials
import NavigationCore

/// A connection to one NavSession daemon: the entry point of the client library.
///
/// Connect once, then talk to the daemon through typed proxies: ``session`` (`org.navsession.Session1`),
/// ``window(_:)`` (`org.navsession.Window1`) and ``application`` (`org.freedesktop.Application`). Follow a
/// window with ``changes(of:buffering:)``, keep its state with ``state(of:)`` and wait for a state with
/// ``wait(for:until:timeout:)``.
///
/// ```swift
/// let client = try await NavSessionClient.connect()          // the session bus, org.navsession.Demo
/// let window = try await client.session.openWindow(scene: "main")
/// try await window.apply([BatchCommand(.switchModel(.screen("main")))])
/// await client.close()
/// ```
///
/// The client is `Sendable`; share one among tasks. Every method throws ``NavSessionError``.
public struct NavSessionClient: Sendable {
    /// Which bus to connect to.
    public enum BusSelection: Sendable, Hashable {
        /// The session bus: the address in `DBUS_SESSION_BUS_ADDRESS` (libdbus's rules).
        case session
        /// The system bus.
        case system
        /// An explicit D-Bus address such as `unix:path=/tmp/bus` (e.g. a private test bus's).
        case address(String)
    }

    /// The application id of the built-in demo, the default daemon to talk to.
    public static let defaultApplicationID = "org.navsession.Demo"

    /// The underlying DBusKit connection, for calls this library does not wrap.
    public let bus: Bus
    /// The daemon's bus name (its application id).
    public let applicationID: String
    /// How long each call waits for its reply.
    public let timeout: Duration

    let destination: BusName

    /// Connects to a bus and addresses the daemon that owns `applicationID` there.
    ///
    /// Connecting does not require the daemon to be running; calls fail with ``NavSessionError/serviceUnknown(_:)``
    /// while no daemon owns the name.
    /// - Parameters:
    ///   - bus: ``BusSelection/session`` (default), ``BusSelection/system`` or an explicit address.
    ///   - applicationID: the daemon's bus name; default `org.navsession.Demo`.
    ///   - timeout: how long each call waits for its reply (default 25 s).
    /// - Throws: ``NavSessionError/connectionFailed(_:)`` when the bus cannot be reached,
    ///   ``NavSessionError/invalidArgs(_:)`` for an application id that is not a bus name.
    public static func connect(
        to bus: BusSelection = .session, applicationID: String = defaultApplicationID,
        timeout: Duration = .seconds(25)
    ) async throws(NavSessionError) -> NavSessionClient {
        let destination: BusName
        do {
            destination = try BusName(applicationID)
        } catch {
            throw NavSessionError(error)
        }
        let address: BusAddress = switch bus {
        case .session: .session
        case .system: .system
        case .address(let text): .address(text)
        }
        let connection = try await mappingErrors { try await Bus.connect(address) }
        return NavSessionClient(bus: connection, destination: destination, timeout: timeout)
    }

    /// Wraps an existing connection (e.g. one that also serves objects of its own).
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` for an application id that is not a bus name.
    public init(bus: Bus, applicationID: String = defaultApplicationID, timeout: Duration = .seconds(25))
        throws(NavSessionError)
    {
        let destination: BusName
        do {
            destination = try BusName(applicationID)
        } catch {
            throw NavSessionError(error)
        }
        self.init(bus: bus, destination: destination, timeout: timeout)
    }

    init(bus: Bus, destination: BusName, timeout: Duration) {
        self.bus = bus
        self.destination = destination
        applicationID = destination.rawValue
        self.timeout = timeout
    }

    /// Closes the connection; streams from ``changes(of:buffering:)`` finish. Idempotent.
    public func close() async {
        await bus.close()
    }

    /// The session object, `/org/navsession/Session1`.
    public var session: SessionProxy { SessionProxy(client: self) }

    /// The application object (`org.freedesktop.Application`), at the id with `.` turned into `/`.
    public var application: ApplicationProxy { ApplicationProxy(client: self) }

    /// The window at an object path the daemon returned (`/org/navsession/Session1/window/3`).
    /// - Throws: ``NavSessionError/invalidArgs(_:)`` when `path` is not an object path.
    public func window(_ path: String) throws(NavSessionError) -> WindowProxy {
        do {
            return WindowProxy(client: self, objectPath: try ObjectPath(path))
        } catch {
            throw NavSessionError(error)
        }
    }

    /// The window with number `number` (`/org/navsession/Session1/window/<number>`).
    public func window(number: UInt64) -> WindowProxy {
        WindowProxy(client: self, objectPath: ObjectPaths.window(number))
    }

    /// Whether a daemon owns ``applicationID`` on the bus now.
    public func isDaemonRunning() async throws(NavSessionError) -> Bool {
        try await mappingErrors { try await bus.nameHasOwner(destination) }
    }

    // MARK: Raw calls

    /// Calls any method of the daemon and returns the reply's arguments, with errors mapped to
    /// ``NavSessionError``. The typed proxies are built on this; tools such as `navsessionctl exec` use it
    /// for calls they assemble from user input.
    /// - Parameters:
    ///   - path: the object path (`/org/navsession/Session1`, a window's path, …).
    ///   - interface: the interface name.
    ///   - member: the method name.
    ///   - arguments: the arguments, as DBusKit values.
    public func call(path: String, interface: String, member: String, arguments: [Value] = [])
        async throws(NavSessionError) -> [Value]
    {
        try await mappingErrors {
            try await bus.call(
                destination: destination, path: try ObjectPath(path), interface: try InterfaceName(interface),
                member: try MemberName(member), arguments: arguments, timeout: timeout)
        }
    }

    /// ``call(path:interface:member:arguments:)`` with typed names.
    func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: String, _ arguments: [Value] = [])
        async throws(NavSessionError) -> [Value]
    {
        try await mappingErrors {
            try await bus.call(
                destination: destination, path: path, interface: interface, member: try MemberName(member),
                arguments: arguments, timeout: timeout)
        }
    }

    /// Reads one property (`Properties.Get`) and unwraps its variant.
    func property(_ path: ObjectPath, _ interface: InterfaceName, _ name: String) async throws(NavSessionError)
        -> Value
    {
        let reply = try await call(path, .properties, "Get", [.string(interface.rawValue), .string(name)])
        guard let value = reply.first?.variantValue else { throw .unexpected("Get", reply) }
        return value
    }

    /// Reads every property of `interface` (`Properties.GetAll`), variants unwrapped.
    func allProperties(_ path: ObjectPath, _ interface: InterfaceName) async throws(NavSessionError)
        -> [String: Value]
    {
        let reply = try await call(path, .properties, "GetAll", [.string(interface.rawValue)])
        guard let entries = reply.first?.dictionaryEntries else { throw .unexpected("GetAll", reply) }
        return Reply.properties(entries)
    }

    /// The unique bus name (`:1.42`) of the daemon that owns ``applicationID`` now: signals from this daemon
    /// instance carry it as their sender.
    /// - Throws: ``NavSessionError/nameHasNoOwner(_:)`` when no daemon runs.
    public func daemonUniqueName() async throws(NavSessionError) -> String {
        try await daemonOwner().rawValue
    }

    /// The unique name of the daemon that owns ``applicationID`` now.
    func daemonOwner() async throws(NavSessionError) -> BusName {
        let reply = try await mappingErrors {
            try await bus.call(
                destination: .bus, path: ObjectPaths.bus, interface: .bus, member: try MemberName("GetNameOwner"),
                arguments: [.string(destination.rawValue)], timeout: timeout)
        }
        guard let name = reply.first?.string, let owner = try? BusName(name) else {
            throw .unexpected("GetNameOwner", reply)
        }
        return owner
    }
}

/// The fixed object paths and interface names of the contract.
enum ObjectPaths {
    /// `/org/navsession/Session1`, also the ObjectManager of the windows.
    static let session = trusted(NavSessionInterface.sessionPath)
    /// The bus driver's object.
    static let bus = trusted("/org/freedesktop/DBus")
    /// Windows live at `<windowPrefix><n>`.
    static let windowPrefix = NavSessionInterface.windowPrefix
    /// `org.navsession.Session1`.
    static let sessionInterface = trustedInterface(NavSessionInterface.Session1.name)
    /// `org.navsession.Window1`.
    static let windowInterface = trustedInterface(NavSessionInterface.Window1.name)
    /// `org.freedesktop.Application`.
    static let applicationInterface = trustedInterface(NavSessionInterface.Application.name)

    /// The path of window `number`.
    static func window(_ number: UInt64) -> ObjectPath {
        trusted(windowPrefix + String(number))
    }

    /// The application object's path: the id with `.` as `/` (`org.navsession.Demo` → `/org/navsession/Demo`).
    static func application(_ id: BusName) -> ObjectPath {
        (try? ObjectPath("/" + id.rawValue.split(separator: ".").joined(separator: "/"))) ?? .root
    }

    /// A path known to be valid; falls back to `/` rather than trapping.
    private static func trusted(_ text: String) -> ObjectPath {
        (try? ObjectPath(text)) ?? .root
    }

    /// An interface name known to be valid; falls back to Properties rather than trapping.
    private static func trustedInterface(_ text: String) -> InterfaceName {
        (try? InterfaceName(text)) ?? .properties
    }
}

/// Helpers for decoding replies.
enum Reply {
    /// `a{sv}` entries as a dictionary of unwrapped values.
    static func properties(_ entries: [DictionaryEntry]) -> [String: Value] {
        var result: [String: Value] = [:]
        for entry in entries {
            if let key = entry.key.string { result[key] = entry.value.variantValue ?? entry.value }
        }
        return result
    }

    /// A `t` reply's value.
    static func version(_ reply: [Value], _ member: String) throws(NavSessionError) -> UInt64 {
        guard let version = reply.first?.uint64 else { throw .unexpected(member, reply) }
        return version
    }

    /// An `s` reply's value.
    static func string(_ reply: [Value], _ member: String) throws(NavSessionError) -> String {
        guard let text = reply.first?.string else { throw .unexpected(member, reply) }
        return text
    }

    /// An `o` reply's value.
    static func path(_ reply: [Value], _ member: String) throws(NavSessionError) -> ObjectPath {
        guard let path = reply.first?.objectPath else { throw .unexpected(member, reply) }
        return path
    }
}

extension NavSessionError {
    /// A reply whose arguments do not have the promised types.
    static func unexpected(_ member: String, _ reply: [Value]) -> NavSessionError {
        .unexpectedReply(member: member, signature: reply.map(\.type.description).joined())
    }
}

/// JSON encoding and decoding of the core's Codable types.
enum JSONCoding {
    /// The JSON text of a value (commands, batches), keys sorted for stable output.
    static func encode<T: Encodable>(_ value: T) throws(NavSessionError) -> String {
        do {
            return String(decoding: try JSONOutput.encode(value), as: UTF8.self)
        } catch {
            throw .encodingFailed("cannot encode \(T.self) as JSON: \(error)")
        }
    }

    /// Decodes the daemon's JSON text.
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws(NavSessionError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw .decodingFailed("cannot decode \(T.self) from the daemon's JSON: \(error)")
        }
    }
}

/// `a{ss}` from a dictionary, keys sorted so calls are reproducible.
extension Value {
    static func stringDictionary(_ pairs: [String: String]) -> Value {
        .dictionary(key: .string, value: .string, pairs.sorted { $0.key < $1.key }.map {
            DictionaryEntry(.string($0.key), .string($0.value))
        })
    }
}
