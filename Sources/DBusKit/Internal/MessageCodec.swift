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

    /// The body bytes of `values` as libdbus's iterator marshals them, and as ``WireMessage`` does from the
    /// values alone (signals) and against their declared types (replies); and the values read back from the
    /// ``WireMessage`` (tests compare all four with the input).
    static func bodies(_ values: [Value]) throws -> (libdbus: [UInt8], wire: [UInt8], typed: [UInt8], decoded: [Value]) {
        guard let message = dbus_message_new_signal("/org/example/Test", "org.example.Test", "Values") else {
            throw ConnectionError(.outOfMemory)
        }
        defer { dbus_message_unref(message) }
        try MessageEncoder.append(values, to: message)
        dbus_message_set_serial(message, 1)
        func wire(_ types: [SignatureType]?) throws -> OpaquePointer {
            guard let wire = try WireMessage.make(
                .signal, serial: WireMessage.firstSerial, path: try ObjectPath("/org/example/Test"),
                interface: try InterfaceName("org.example.Test"), member: try MemberName("Values"), body: values,
                types: types)
            else { throw ConnectionError(.outOfMemory, "values hold a descriptor") }
            return wire
        }
        let fromValues = try wire(nil)
        defer { dbus_message_unref(fromValues) }
        let typed = try wire(values.map(\.type))
        defer { dbus_message_unref(typed) }
        let decoded = try MessageDecoder().decodeBody(of: fromValues)
        return (try body(of: message), try body(of: fromValues), try body(of: typed), decoded)
    }

    private static func body(of message: OpaquePointer) throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else { throw ConnectionError(.outOfMemory) }
        defer { dbus_free(buffer) }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(length))
        let bodyLength = Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
        return Array(bytes[(bytes.count - bodyLength)...])
    }
}
