internal import CDBus

/// Outgoing signals and method returns marshalled in one pass and written to the socket whole.
///
/// Built through libdbus's iterator, every top-level argument makes libdbus re-read and rewrite the
/// header's SIGNATURE field (`_dbus_message_iter_open_signature`/`close_signature`): for a 7-argument
/// `Changed` that was about half of libdbus's cost per call. Here the body and the header are written
/// into one buffer following the D-Bus specification's marshalling rules (little-endian). What is written is
/// valid by construction: names, paths and signatures are checked when their values are made, strings are
/// Swift's (valid UTF-8; a NUL is refused here), nesting and lengths are checked as they are written.
/// ``Bus/sendWire(_:)`` writes the bytes to the socket itself (no second reading by libdbus, which cost a
/// quarter of a call); debug builds — the tests — hand every message to `dbus_message_demarshal` first, which
/// checks it exactly as it checks a message read from a peer. Values holding a file descriptor (`h`) need
/// libdbus's descriptor passing and go through the iterator path instead (`nil` here).
struct WireMessage {
    enum Kind: UInt8 {
        case methodReturn = 2
        case signal = 4
    }

    /// Serials for messages built here start at 2³¹, above the ones libdbus assigns from 1 to the
    /// messages it serializes itself, so the two never collide on one connection in practice.
    static let firstSerial: UInt32 = 0x8000_0000

    private(set) var bytes: [UInt8] = []
    /// Set when the body holds a file descriptor (`h`), which only libdbus's iterator can attach.
    private var holdsDescriptor = false

    /// The marshalled size in bytes (header and body), as it would travel on the socket.
    var size: Int { bytes.count }

    /// A complete message handed to libdbus, or `nil` when `body` holds a file descriptor.
    /// - Throws: ``ValidationError`` for values libdbus would reject.
    static func make(
        _ kind: Kind, serial: UInt32, path: ObjectPath?, interface: InterfaceName?, member: MemberName?,
        replySerial: UInt32? = nil, destination: String? = nil, body: [Value], types: [SignatureType]? = nil
    ) throws(ValidationError) -> OpaquePointer? {
        try build(
            kind, serial: serial, path: path, interface: interface, member: member, replySerial: replySerial,
            destination: destination, body: body, types: types)?.demarshal()
    }

    /// The message's bytes, or `nil` when `body` holds a file descriptor.
    ///
    /// With `types`, each value must have its declared type (a method's outputs). Without, the signature
    /// is read off the values while they are written: one walk per message, no ``SignatureType`` built.
    /// The nesting limits are the spec's, checked by libdbus in ``demarshal()``; checked here is only what
    /// would make the bytes themselves wrong (a signature over 255 bytes, NUL in a string) and a nesting
    /// depth past the spec's 64, so no value drives the writer's recursion deeper than that.
    /// - Throws: ``ValidationError`` for values libdbus would reject.
    static func build(
        _ kind: Kind, serial: UInt32, path: ObjectPath?, interface: InterfaceName?, member: MemberName?,
        replySerial: UInt32? = nil, destination: String? = nil, body: [Value], types: [SignatureType]? = nil
    ) throws(ValidationError) -> WireMessage? {
        guard let encoded = try Body(body, types: types) else { return nil }
        return assemble(
            kind, serial: serial, path: path, interface: interface, member: member, replySerial: replySerial,
            destination: destination, body: encoded)
    }

    /// A message body and its signature, marshalled once: several messages can carry it (one signal unicast
    /// to each of its followers differs only in the header's destination).
    struct Body {
        /// The body's bytes, then its signature's (one allocation for both: the signature is read off the values
        /// after the body is written).
        private let storage: [UInt8]
        /// Where the body ends and the signature starts in ``storage``.
        private let bodyCount: Int

        fileprivate var bytes: ArraySlice<UInt8> { storage[..<bodyCount] }
        fileprivate var signature: ArraySlice<UInt8> { storage[bodyCount...] }

        /// `nil` when `values` hold a file descriptor.
        /// - Throws: ``ValidationError`` for values libdbus would reject.
        init?(_ values: [Value], types: [SignatureType]? = nil) throws(ValidationError) {
            var encoded = WireMessage()
            // `Changed` carries its cause and steps as JSON (≈ 600 bytes for a push): room enough that a body is
            // written without growing (an allocation and a copy per doubling); unwritten room costs no memory
            // traffic. Less than 1 KiB with the array's header: the C library keeps freed blocks up to 1 032 bytes
            // in a per-thread cache, and a larger request goes to its general allocator, which first merges every
            // small free block (`malloc_consolidate`), touching memory no call needs (three bodies per change did).
            encoded.bytes.reserveCapacity(960)
            var depth = 0
            if let types {
                guard values.count == types.count else {
                    throw ValidationError(.value, "\(values.count) values where \(types.count) were declared")
                }
                for (value, type) in zip(values, types) { try encoded.write(value, as: type, depth: &depth) }
            } else {
                for value in values { try encoded.write(value, depth: &depth) }
            }
            guard !encoded.holdsDescriptor else { return nil }
            let bodyCount = encoded.bytes.count
            if let types {
                for type in types { type.appendSignature(to: &encoded.bytes) }
            } else {
                for value in values { WireMessage.appendSignature(of: value, to: &encoded.bytes) }
            }
            guard encoded.bytes.count - bodyCount <= 255 else {
                throw ValidationError(.signature, "the body signature is longer than 255 bytes")
            }
            storage = encoded.bytes
            self.bodyCount = bodyCount
        }

        /// `PropertiesChanged`'s body (`sa{sv}as`), written straight from the interface's name, the changed
        /// properties and the invalidated ones: the same bytes as the body of `[.string(interface), .dictionary(key:
        /// .string, value: .variant, …), .array(.string, …)]`, without building the entries and a heap box for each
        /// variant. `nil` when a value holds a file descriptor.
        /// - Throws: ``ValidationError`` for values libdbus would reject.
        init?(
            propertiesOf interface: String, changed: [(name: MemberName, value: Value)], invalidated: [MemberName]
        ) throws(ValidationError) {
            var encoded = WireMessage()
            // A window's change announces about ten properties, ≈ 500 bytes.
            encoded.bytes.reserveCapacity(640)
            encoded.writeString(interface)
            try encoded.writeArray(elementAlignment: 8) { (writer) throws(ValidationError) in
                for (name, value) in changed {
                    writer.align(8)
                    writer.writeString(name.rawValue)
                    // As the generic writer counts it: the dictionary, then the variant.
                    var depth = 2
                    try writer.writeVariant(value, depth: &depth)
                }
            }
            try encoded.writeArray(elementAlignment: 4) { (writer) throws(ValidationError) in
                for name in invalidated { writer.writeString(name.rawValue) }
            }
            guard !encoded.holdsDescriptor else { return nil }
            bodyCount = encoded.bytes.count
            encoded.bytes.append(contentsOf: "sa{sv}as".utf8)
            storage = encoded.bytes
        }
    }

    /// The header for `body`, then `body`.
    static func assemble(
        _ kind: Kind, serial: UInt32, path: ObjectPath?, interface: InterfaceName?, member: MemberName?,
        replySerial: UInt32? = nil, destination: String? = nil, body: Body
    ) -> WireMessage {
        assemble(
            prefix: headerPrefix(kind, path: path, interface: interface, member: member, replySerial: replySerial, body: body),
            serial: serial, destination: destination, body: body)
    }

    /// The part of the header that does not depend on the serial or the destination: the fixed header (serial 0,
    /// the fields' length not yet set), then the path, interface, member and reply serial fields. One signal
    /// unicast to many peers makes it once (a header per peer rewrote the same strings each time).
    static func headerPrefix(
        _ kind: Kind, path: ObjectPath?, interface: InterfaceName?, member: MemberName?, replySerial: UInt32? = nil,
        body: Body
    ) -> [UInt8] {
        var message = WireMessage()
        // Room for the whole message made from it when it is used once (a destination, the signature, the body).
        message.bytes.reserveCapacity(body.bytes.count + body.signature.count + 224)
        // Fixed header: endianness, type, flags (no reply expected, as libdbus sets on signals and returns),
        // protocol version, body length, serial (set by `assemble(prefix:…)`), the fields' length (likewise).
        message.bytes.append(UInt8(ascii: "l"))
        message.bytes.append(kind.rawValue)
        message.bytes.append(0x1)
        message.bytes.append(1)
        message.append32(UInt32(body.bytes.count))
        message.append32(0)
        message.append32(0)
        // Header fields, a(yv), from offset 16: each field is aligned to 8 from the message's start, which the
        // prefix shares with every message made from it.
        if let path { message.field(1, UInt8(ascii: "o"), path.rawValue) }
        if let interface { message.field(2, UInt8(ascii: "s"), interface.rawValue) }
        if let member { message.field(3, UInt8(ascii: "s"), member.rawValue) }
        if let replySerial {
            message.fieldHeader(5, UInt8(ascii: "u"))
            message.append32(replySerial)
        }
        return message.bytes
    }

    /// The message made of `prefix` (``headerPrefix(_:path:interface:member:replySerial:body:)`` for this `body`),
    /// `serial`, the destination and signature fields, then `body`.
    /// A prefix passed for one message only is taken over (no copy); one kept for more is copied for each.
    static func assemble(prefix: consuming [UInt8], serial: UInt32, destination: String?, body: Body) -> WireMessage {
        var message = WireMessage()
        message.bytes = consume prefix
        // The destination field (code, its signature, length, text, NUL: ≤ 16 bytes and the text with its
        // padding), the signature field (≤ 8 + 2 and the signature), the padding before the body, the body.
        message.bytes.reserveCapacity(
            message.bytes.count + (destination.map { $0.utf8.count + 16 } ?? 0) + body.signature.count + 24
                + body.bytes.count)
        message.set32(serial, at: 8)
        if let destination { message.field(6, UInt8(ascii: "s"), destination) }
        if !body.signature.isEmpty {
            message.fieldHeader(8, UInt8(ascii: "g"))
            message.bytes.append(UInt8(body.signature.count))
            message.bytes.append(contentsOf: body.signature)
            message.bytes.append(0)
        }
        message.set32(UInt32(message.bytes.count - fieldsStart), at: fieldsLengthOffset)
        message.align(8)
        message.bytes.append(contentsOf: body.bytes)
        return message
    }

    /// Where the header's fields' byte length is, and where the fields start.
    private static let fieldsLengthOffset = 12
    private static let fieldsStart = 16

    /// Hands the bytes to libdbus, which checks them exactly as it checks a message read from a peer.
    /// - Throws: ``ValidationError`` with libdbus's reason when it refuses them.
    func demarshal() throws(ValidationError) -> OpaquePointer {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let demarshalled = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        guard let demarshalled else {
            let reason = error.message.map { String(cString: $0) } ?? "invalid message"
            throw ValidationError(.value, "libdbus refused the message: \(reason)")
        }
        return demarshalled
    }

    // MARK: Signatures

    /// The signature of `value`'s type, read off the value: containers carry their element types, and a
    /// structure's fields are values, so no ``SignatureType`` is built (``Value/type`` allocates one per container).
    fileprivate static func appendSignature(of value: Value, to out: inout [UInt8]) {
        switch value {
        case .array(let element, _):
            out.append(UInt8(ascii: "a"))
            element.appendSignature(to: &out)
        case .dictionary(let key, let valueType, _):
            SignatureType.appendDictionarySignature(key: key, value: valueType, to: &out)
        case .structure(let fields):
            out.append(UInt8(ascii: "("))
            for field in fields { appendSignature(of: field, to: &out) }
            out.append(UInt8(ascii: ")"))
        default:
            out.append(value.type.typeCode)
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

    /// The code, variant signature and padding of a header field whose value has the basic type `type`.
    private mutating func fieldHeader(_ code: UInt8, _ type: UInt8) {
        align(8)
        bytes.append(code)
        bytes.append(1)
        bytes.append(type)
        bytes.append(0)
    }

    /// A header field whose value is a string-like type (`o` or `s`).
    private mutating func field(_ code: UInt8, _ type: UInt8, _ text: String) {
        fieldHeader(code, type)
        writeString(text)
    }

    /// A string value, refused if it holds a NUL byte (C would truncate there; `containsNUL` is one `memchr`).
    private mutating func writeCheckedString(_ text: String) throws(ValidationError) {
        try NameValidation.checkString(text)
        writeString(text)
    }

    private mutating func writeString(_ text: String) {
        align(4)
        append32(UInt32(text.utf8.count))
        appendUTF8(text)
        bytes.append(0)
    }

    private mutating func appendUTF8(_ text: String) {
        // Read in place: `withUTF8` needs a mutable copy of the string (a retain and a release per string).
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if done == nil { bytes.append(contentsOf: text.utf8) }
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

    /// The spec's limit on the total nesting of containers (32 arrays plus 32 structures, variants counted).
    static let maximumDepth = 64

    private static func nest(_ depth: inout Int) throws(ValidationError) {
        depth += 1
        guard depth <= maximumDepth else {
            throw ValidationError(.value, "containers nested deeper than \(maximumDepth)")
        }
    }

    /// Writes a basic value; `false` for a container (or a variant), which the caller writes.
    private mutating func writeBasic(_ value: Value) throws(ValidationError) -> Bool {
        switch value {
        case .byte(let v): bytes.append(v)
        case .boolean(let v):
            align(4)
            append32(v ? 1 : 0)
        case .int16(let v):
            align(2)
            append16(UInt16(bitPattern: v))
        case .uint16(let v):
            align(2)
            append16(v)
        case .int32(let v):
            align(4)
            append32(UInt32(bitPattern: v))
        case .uint32(let v):
            align(4)
            append32(v)
        case .int64(let v):
            align(8)
            append64(UInt64(bitPattern: v))
        case .uint64(let v):
            align(8)
            append64(v)
        case .double(let v):
            align(8)
            append64(v.bitPattern)
        case .string(let v):
            try writeCheckedString(v)
        case .objectPath(let v): writeString(v.rawValue)
        case .signature(let v): writeSignature(v.rawValue)
        case .unixFD:
            // The index into the descriptors libdbus attaches; the message goes through libdbus instead.
            holdsDescriptor = true
            align(4)
            append32(0)
        case .array, .dictionary, .structure, .variant: return false
        }
        return true
    }

    /// Writes `value` as its own type (a signal's arguments, a variant's contents).
    fileprivate mutating func write(_ value: Value, depth: inout Int) throws(ValidationError) {
        guard try !writeBasic(value) else { return }
        try Self.nest(&depth)
        defer { depth -= 1 }
        switch value {
        case .array(let elementType, let elements):
            try writeElements(elements, of: elementType, depth: &depth)
        case .dictionary(let keyType, let valueType, let entries):
            guard keyType.isBasic else { throw ValidationError(.value, "a dictionary key of type '\(keyType)'") }
            try writeEntries(entries, keyType: keyType, valueType: valueType, depth: &depth)
        case .structure(let fields):
            guard !fields.isEmpty else { throw ValidationError(.value, "a structure without fields") }
            align(8)
            for field in fields { try write(field, depth: &depth) }
        case .variant(let inner):
            try writeVariant(inner, depth: &depth)
        default:
            break
        }
    }

    /// Writes `value`, which must have type `type` (array elements, dictionary entries, declared outputs).
    fileprivate mutating func write(_ value: Value, as type: SignatureType, depth: inout Int) throws(ValidationError) {
        switch (value, type) {
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
             (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string),
             (.objectPath, .objectPath), (.signature, .signature), (.unixFD, .unixFD):
            _ = try writeBasic(value)
            return
        default:
            break
        }
        try Self.nest(&depth)
        defer { depth -= 1 }
        switch (value, type) {
        case (.array(let elementType, let elements), .array(let declared)):
            guard elementType == declared else { throw MessageEncoder.mismatch(value, type) }
            try writeElements(elements, of: elementType, depth: &depth)
        case (.dictionary(let keyType, let valueType, let entries), .dictionary(let declaredKey, let declaredValue)):
            guard keyType == declaredKey, valueType == declaredValue, keyType.isBasic else {
                throw MessageEncoder.mismatch(value, type)
            }
            try writeEntries(entries, keyType: keyType, valueType: valueType, depth: &depth)
        case (.structure(let fields), .structure(let declared)):
            guard !fields.isEmpty, fields.count == declared.count else { throw MessageEncoder.mismatch(value, type) }
            align(8)
            for (field, fieldType) in zip(fields, declared) {
                try write(field, as: fieldType, depth: &depth)
            }
        case (.variant(let inner), .variant):
            try writeVariant(inner, depth: &depth)
        default:
            throw MessageEncoder.mismatch(value, type)
        }
    }

    /// An array's elements, each of which must have the array's element type.
    private mutating func writeElements(
        _ elements: [Value], of elementType: SignatureType, depth: inout Int
    ) throws(ValidationError) {
        try writeArray(elementAlignment: Self.alignment(of: elementType)) { (writer) throws(ValidationError) in
            for element in elements { try writer.write(element, as: elementType, depth: &depth) }
        }
    }

    private mutating func writeEntries(
        _ entries: [DictionaryEntry], keyType: SignatureType, valueType: SignatureType, depth: inout Int
    ) throws(ValidationError) {
        try writeArray(elementAlignment: 8) { (writer) throws(ValidationError) in
            for entry in entries {
                writer.align(8)
                try writer.write(entry.key, as: keyType, depth: &depth)
                try writer.write(entry.value, as: valueType, depth: &depth)
            }
        }
    }

    /// A variant: the signature of its contents (read off the value), then the contents.
    private mutating func writeVariant(_ inner: Value, depth: inout Int) throws(ValidationError) {
        let lengthOffset = bytes.count
        bytes.append(0)
        Self.appendSignature(of: inner, to: &bytes)
        let length = bytes.count - lengthOffset - 1
        guard length <= 255 else { throw ValidationError(.signature, "a variant's signature is longer than 255 bytes") }
        bytes[lengthOffset] = UInt8(length)
        bytes.append(0)
        try write(inner, depth: &depth)
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
