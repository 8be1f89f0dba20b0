import DBusKit

/// A connection to one daemon: typed helpers over ``Bus`` calls for the Session1 and Window1 objects.
struct SessionClient: Sendable {
    /// The connection.
    let bus: Bus
    /// The daemon's bus name.
    let destination: BusName
    /// How long each call waits for its reply.
    let timeout: Duration

    /// Calls a method on any object of the daemon.
    func call(_ path: ObjectPath, _ interface: String, _ member: String, _ arguments: [Value] = []) async throws
        -> [Value]
    {
        try await bus.call(
            destination: destination, path: path, interface: try InterfaceName(interface),
            member: try MemberName(member), arguments: arguments, timeout: timeout)
    }

    /// Calls a method of `org.navsession.Session1`.
    func callSession(_ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await call(try ObjectPath(SessionNames.sessionPath), SessionNames.session, member, arguments)
    }

    /// Calls a method of `org.navsession.Window1` on `window`.
    func callWindow(_ window: ObjectPath, _ member: String, _ arguments: [Value] = []) async throws -> [Value] {
        try await call(window, SessionNames.window, member, arguments)
    }

    /// Reads one property (`Properties.Get`) and unwraps its variant.
    func property(_ path: ObjectPath, _ interface: String, _ name: String) async throws -> Value {
        let reply = try await call(path, InterfaceName.properties.rawValue, "Get", [.string(interface), .string(name)])
        guard let value = reply.first?.variantValue else { throw ReplyError(member: "Get", reply: reply) }
        return value
    }

    /// Reads every property of `interface` (`Properties.GetAll`).
    func allProperties(_ path: ObjectPath, _ interface: String) async throws -> [String: Value] {
        let reply = try await call(path, InterfaceName.properties.rawValue, "GetAll", [.string(interface)])
        guard let entries = reply.first?.dictionaryEntries else { throw ReplyError(member: "GetAll", reply: reply) }
        return Self.properties(entries)
    }

    /// `a{sv}` entries as a dictionary of unwrapped values.
    static func properties(_ entries: [DictionaryEntry]) -> [String: Value] {
        var result: [String: Value] = [:]
        for entry in entries {
            if let key = entry.key.string { result[key] = entry.value.variantValue ?? entry.value }
        }
        return result
    }

    /// The single string a method such as GetState returns.
    func stringResult(_ window: ObjectPath, _ member: String) async throws -> String {
        let reply = try await callWindow(window, member)
        guard let text = reply.first?.string else { throw ReplyError(member: member, reply: reply) }
        return text
    }

    /// The open windows, in opening order.
    func listWindows() async throws -> [ObjectPath] {
        let reply = try await callSession("ListWindows")
        guard let elements = reply.first?.arrayElements else { throw ReplyError(member: "ListWindows", reply: reply) }
        return elements.compactMap(\.objectPath)
    }
}

/// A reply whose arguments do not have the types the contract promises.
struct ReplyError: Error, CustomStringConvertible {
    let member: String
    let reply: [Value]

    var description: String {
        "unexpected reply to \(member): signature '\(reply.map(\.type.description).joined())'"
    }
}

extension ConnectionOptions {
    /// Connects, runs `body` with the client, and closes the connection whatever happens.
    func withClient<T: Sendable>(_ body: (SessionClient) async throws -> T) async throws -> T {
        let client = try await connect()
        do {
            let result = try await body(client)
            await client.bus.close()
            return result
        } catch {
            await client.bus.close()
            throw error
        }
    }
}
