internal import CDBus

extension Bus {
    /// Sends a method call that expects a reply, returns once the call is written to the socket, and
    /// never waits for the reply (libdbus drops it when it comes).
    ///
    /// Followed by ``close()``, this is a client that vanishes mid-call: the service's reply then goes to a
    /// peer that is gone. For robustness tests and fuzzers; ordinary clients use
    /// ``call(destination:path:interface:member:arguments:timeout:)`` or
    /// ``callWithoutReply(destination:path:interface:member:arguments:)``.
    ///
    /// ```swift
    /// let client = try await Bus.connect(.address(address))
    /// try await client.abandonCall(destination: name, path: path, interface: nil, member: member)
    /// await client.close()
    /// ```
    /// - Throws: ``ConnectionError`` when disconnected; ``ValidationError`` for invalid arguments.
    public func abandonCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [Value] = []
    ) throws {
        let message = try makeMethodCall(destination, path, interface, member, arguments)
        defer { dbus_message_unref(message) }
        try send(message)
        // Blocks only this connection's own thread (we are on it) until the outgoing queue is written.
        if let connection { dbus_connection_flush(connection) }
    }
}
