internal import CDBus
import Glibc

/// Encodes values into a real `DBusMessage`, pushes it through libdbus's wire format and decodes it again.
///
/// Used by tests (no bus needed) to prove that every ``Value`` survives libdbus unchanged.
enum MessageCodec {
    static func roundTrip(_ values: [Value], throughWireFormat: Bool = true) throws -> [Value] {
        guard let message = dbus_message_new_signal("/org/example/Test", "org.example.Test", "Values") else {
            throw ConnectionError(.outOfMemory)
        }
        defer { dbus_message_unref(message) }
        try MessageEncoder.append(values, to: message)
        // File descriptors travel beside the bytes, so they cannot go through the wire format.
        guard throughWireFormat else { return try MessageDecoder().decodeBody(of: message) }
        dbus_message_set_serial(message, 1)

        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else {
            throw ConnectionError(.outOfMemory)
        }
        defer { dbus_free(buffer) }
        let decoded = try LibDBus.withBusError(.outOfMemory) { dbus_message_demarshal(buffer, length, $0) }
        guard let decoded else { throw ConnectionError(.outOfMemory, "demarshal failed") }
        defer { dbus_message_unref(decoded) }
        return try MessageDecoder().decodeBody(of: decoded)
    }

    /// The body signature libdbus records after encoding `values`.
    static func signature(of values: [Value]) throws -> String {
        guard let message = dbus_message_new_signal("/org/example/Test", "org.example.Test", "Values") else {
            throw ConnectionError(.outOfMemory)
        }
        defer { dbus_message_unref(message) }
        try MessageEncoder.append(values, to: message)
        return LibDBus.signature(message)
    }

    /// libdbus's own verdict on a signature, for cross-checking the Swift parser.
    static func libdbusAcceptsSignature(_ text: String) -> Bool {
        text.withCString { dbus_signature_validate($0, nil) } != 0
    }
}
