import DBusKit

/// Introspects every object of the daemon, from `/` down through each child node.
enum ObjectWalker {
    static let introspectable = "org.freedesktop.DBus.Introspectable"

    /// Every object reachable from `/` (at most `limit`), in breadth-first order.
    static func walk(bus: Bus, destination: BusName, timeout: Duration, limit: Int = 500) async throws -> [ObjectDescription] {
        var found: [ObjectDescription] = []
        var queue: [ObjectPath] = [.root]
        while !queue.isEmpty, found.count < limit {
            let path = queue.removeFirst()
            let reply = try await bus.call(
                destination: destination, path: path, interface: try InterfaceName(introspectable),
                member: try MemberName("Introspect"), timeout: timeout)
            guard let xml = reply.first?.string, let object = IntrospectionParser.parse(xml, path: path) else {
                throw FuzzSetupError("\(path) returned introspection XML that does not parse")
            }
            found.append(object)
            for child in object.children {
                if let childPath = try? path.appending(child) { queue.append(childPath) }
            }
        }
        return found
    }
}
