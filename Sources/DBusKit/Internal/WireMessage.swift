internal import CDBus

/// Outgoing signals and method returns marshalled in one pass and handed to libdbus whole.
///
/// Built through libdbus's iterator, every top-level argument makes libdbus re-read and rewrite the
/// header's SIGNATURE field (`_dbus_message_iter_open_signature`/`close_signature`): for a 7-argument
/// `Changed` that was about half of libdbus's cost per call. Here the body and the header are written
/// into one buffer following the D-Bus specification's marshalling rules (little-endian), and
/// `dbus_message_demarshal` checks the result exactly as it checks a message read from a socket —
/// nothing reaches the bus that libdbus would not accept from a peer. Values holding a file descriptor
/// (`h`) need libdbus's descriptor passing and go through the iterator path instead (`nil` here).
struct WireMessage {
    enum Kind: UInt8 {
        case methodReturn = 2
        case signal = 4
    }

    /// Serials for messages built here start at 2³¹, above the ones libdbus assigns from 1 to the
    /// messages it serializes itself, so the two never collide on one connection in practice.
    static let firstSerial: UInt32 = 0x8000_0000

    private var bytes: [UInt8] = []

    /// A complete message, or `nil` when `body` holds a file descriptor.
    /// - Throws: ``ValidationError`` for values libdbus would reject (NUL in a string, nesting or
    ///   signature limits, a variant nested too deep).
    static func make(
        _ kind: Kind, serial: UInt32, path: ObjectPath?, interface: InterfaceName?, member: MemberName?,
        replySerial: UInt32? = nil, destination: String? = nil, body: [Value], types: [SignatureType]
    ) throws(ValidationError) -> OpaquePointer? {
        guard body.count == types.count else {
            throw ValidationError(.value, "\(body.count) values where \(types.count) were declared")
        }
        guard !body.contains(where: Self.holdsDescriptor) else { return nil }
        try MessageEncoder.checkLimits(body)
        var signature = ""
        for type in types { type.append(to: &signature) }
        guard signature.utf8.count <= 255 else {
            throw ValidationError(.signature, "the body signature is longer than 255 bytes")
        }
        var encodedBody = WireMessage()
        encodedBody.bytes.reserveCapacity(256)
        var variantDepth = 0
        for (value, type) in zip(body, types) {
            try encodedBody.write(value, as: type, variantDepth: &variantDepth)
        }

        var message = WireMessage()
        message.bytes.reserveCapacity(encodedBody.bytes.count + 160)
        // Fixed header: endianness, type, flags (no reply expected, as libdbus sets on signals and returns),
        // protocol version, body length, serial.
        message.bytes.append(contentsOf: [UInt8(ascii: "l"), kind.rawValue, 0x1, 1])
        message.append32(UInt32(encodedBody.bytes.count))
        message.append32(serial)
        // Header fields: a(yv).
        let lengthOffset = message.bytes.count
        message.append32(0)
        message.align(8)
        let fieldsStart = message.bytes.count
        if let path { message.field(1, "o", path.rawValue) }
        if let interface { message.field(2, "s", interface.rawValue) }
        if let member { message.field(3, "s", member.rawValue) }
        if let replySerial {
            message.align(8)
            message.bytes.append(contentsOf: [5, 1, UInt8(ascii: "u"), 0])
            message.append32(replySerial)
        }
        if let destination { message.field(6, "s", destination) }
        if !signature.isEmpty {
            message.align(8)
            message.bytes.append(contentsOf: [8, 1, UInt8(ascii: "g"), 0])
            message.writeSignature(signature)
        }
        message.set32(UInt32(message.bytes.count - fieldsStart), at: lengthOffset)
        message.align(8)
        message.bytes.append(contentsOf: encodedBody.bytes)

        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let demarshalled = message.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        guard let demarshalled else {
            let reason = error.message.map { String(cString: $0) } ?? "invalid message"
            throw ValidationError(.value, "libdbus refused the message: \(reason)")
        }
        return demarshalled
    }

    /// Whether `value` carries a file descriptor; arrays of basic types other than `h` are not walked.
    private static func holdsDescriptor(_ value: Value) -> Bool {
        switch value {
        case .unixFD: true
        case .variant(let inner): holdsDescriptor(inner)
        case .array(let element, let elements):
            element.isBasic && element != .unixFD ? false : elements.contains(where: holdsDescriptor)
        case .dictionary(let key, let valueType, let entries):
            key == .unixFD || !(valueType.isBasic && valueType != .unixFD)
                && entries.contains { holdsDescriptor($0.key) || holdsDescriptor($0.value) }
        case .structure(let fields): fields.contains(where: holdsDescriptor)
        default: false
        }
    }

    // MARK: Writing

    // Byte by byte: the generic `append(contentsOf:)` over raw buffers and `repeatElement` cost more than
    // the few bytes they append (they showed in the daemon's profile).
    private mutating func align(_ boundary: Int) {
        var remainder = bytes.count % boundary
        guard remainder != 0 else { return }
        while remainder < boundary {
            bytes.append(0)
            remainder += 1
        }
    }

    private mutating func append16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private mutating func append32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    private mutating func append64(_ value: UInt64) {
        append32(UInt32(truncatingIfNeeded: value))
        append32(UInt32(truncatingIfNeeded: value >> 32))
    }

    private mutating func set32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// A header field whose value is a string-like type (`o` or `s`).
    private mutating func field(_ code: UInt8, _ type: Character, _ text: String) {
        align(8)
        bytes.append(contentsOf: [code, 1, type.asciiValue ?? 0, 0])
        writeString(text)
    }

    private mutating func writeString(_ text: String) {
        align(4)
        append32(UInt32(text.utf8.count))
        appendUTF8(text)
        bytes.append(0)
    }

    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func writeSignature(_ text: String) {
        bytes.append(UInt8(text.utf8.count))
        appendUTF8(text)
        bytes.append(0)
    }

    private static func alignment(of type: SignatureType) -> Int {
        switch type {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    private mutating func write(
        _ value: Value, as type: SignatureType, variantDepth: inout Int
    ) throws(ValidationError) {
        switch (value, type) {
        case (.byte(let v), .byte): bytes.append(v)
        case (.boolean(let v), .boolean):
            align(4)
            append32(v ? 1 : 0)
        case (.int16(let v), .int16):
            align(2)
            append16(UInt16(bitPattern: v))
        case (.uint16(let v), .uint16):
            align(2)
            append16(v)
        case (.int32(let v), .int32):
            align(4)
            append32(UInt32(bitPattern: v))
        case (.uint32(let v), .uint32):
            align(4)
            append32(v)
        case (.int64(let v), .int64):
            align(8)
            append64(UInt64(bitPattern: v))
        case (.uint64(let v), .uint64):
            align(8)
            append64(v)
        case (.double(let v), .double):
            align(8)
            append64(v.bitPattern)
        case (.string(let v), .string):
            try NameValidation.checkString(v)
            writeString(v)
        case (.objectPath(let v), .objectPath): writeString(v.rawValue)
        case (.signature(let v), .signature): writeSignature(v.rawValue)
        case (.array(let elementType, let elements), .array(let declared)):
            guard elementType == declared else { throw MessageEncoder.mismatch(value, type) }
            try writeArray(elementAlignment: Self.alignment(of: elementType)) { (writer) throws(ValidationError) in
                for element in elements {
                    try writer.write(element, as: elementType, variantDepth: &variantDepth)
                }
            }
        case (.dictionary(let keyType, let valueType, let entries), .dictionary(let declaredKey, let declaredValue)):
            guard keyType == declaredKey, valueType == declaredValue, keyType.isBasic else { throw MessageEncoder.mismatch(value, type) }
            try writeArray(elementAlignment: 8) { (writer) throws(ValidationError) in
                for entry in entries {
                    writer.align(8)
                    try writer.write(entry.key, as: keyType, variantDepth: &variantDepth)
                    try writer.write(entry.value, as: valueType, variantDepth: &variantDepth)
                }
            }
        case (.structure(let fields), .structure(let declared)):
            guard !fields.isEmpty, fields.count == declared.count else { throw MessageEncoder.mismatch(value, type) }
            align(8)
            for (field, fieldType) in zip(fields, declared) {
                try write(field, as: fieldType, variantDepth: &variantDepth)
            }
        case (.variant(let inner), .variant):
            variantDepth += 1
            defer { variantDepth -= 1 }
            guard variantDepth <= MessageEncoder.maximumVariantDepth else {
                throw ValidationError(.value, "variants nested deeper than \(MessageEncoder.maximumVariantDepth)")
            }
            let innerType = inner.type
            let innerSignature = innerType.isBasic ? innerType.description : try Signature([innerType]).rawValue
            writeSignature(innerSignature)
            try write(inner, as: innerType, variantDepth: &variantDepth)
        default:
            throw MessageEncoder.mismatch(value, type)
        }
    }

    /// An array: its byte length (from the first element, after the padding to its alignment), then the elements.
    private mutating func writeArray(
        elementAlignment: Int, _ elements: (inout WireMessage) throws(ValidationError) -> Void
    ) throws(ValidationError) {
        align(4)
        let lengthOffset = bytes.count
        append32(0)
        align(elementAlignment)
        let start = bytes.count
        try elements(&self)
        let length = bytes.count - start
        guard length <= 1 << 26 else { throw ValidationError(.value, "an array of \(length) bytes; at most 64 MiB") }
        set32(UInt32(length), at: lengthOffset)
    }

}
