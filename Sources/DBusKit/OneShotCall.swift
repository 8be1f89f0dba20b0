internal import CDBus

/// One method call made on the calling thread, blocking: connect, call, read the reply, close. No bus thread, no
/// task, no event loop — for a process that makes one call and exits, where starting threads costs more than the
/// call (navsessionctl's ordinary commands; Docs/performance.md, "navsessionctl"). Everything else uses ``Bus``.
public enum OneShotCall {
    /// Calls `member` and returns the reply's arguments.
    ///
    /// - Throws: ``ConnectionError`` `connectFailed` when the bus is unreachable (nothing was sent), `timedOut`
    ///   when no reply came within `timeout`, `disconnected` when the connection closed first; ``BusError`` for an
    ///   error reply (the bus's own, such as `ServiceUnknown` when no one owns `destination`, or the callee's);
    ///   ``ValidationError`` for arguments libdbus would refuse.
    public static func call(
        on address: BusAddress, destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        arguments: [Value] = [], timeout: Duration = .seconds(25)
    ) throws -> [Value] {
        let message = try Bus.newMethodCall(destination, path, interface, member, arguments)
        defer { dbus_message_unref(message) }
        let connection = try Bus.openConnection(address)
        defer {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeout.libdbusMilliseconds, &error) else {
            let name = error.name.map { String(cString: $0) } ?? ErrorName.failed.rawValue
            let text = error.message.map { String(cString: $0) } ?? ""
            dbus_error_free(&error)
            // libdbus makes the NoReply for a timeout or a dropped connection itself.
            if name == ErrorName.noReply.rawValue || name == ErrorName.disconnected.rawValue {
                if dbus_connection_get_is_connected(connection) == 0 { throw ConnectionError(.disconnected, text) }
                throw ConnectionError(.timedOut, text)
            }
            throw BusError(ErrorName(trusted: name), text)
        }
        defer { dbus_message_unref(reply) }
        return try MessageDecoder().decodeBody(of: reply)
    }
}
