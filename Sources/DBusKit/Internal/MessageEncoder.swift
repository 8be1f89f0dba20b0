internal import CDBus

/// Appends ``Value``s to a libdbus message, checking each value against its declared type first.
///
/// libdbus aborts on a type mismatch inside a container or on a bad string, so every check happens here,
/// before the corresponding `dbus_message_iter_append_*` call.
struct MessageEncoder {
    /// Appends `values` as the message body. On error the message is left half-written; callers discard it.
    static func append(_ values: [Value], to message: OpaquePointer) throws(ValidationError) {
        // libdbus aborts on container signatures over the nesting or length limits, so check the whole body's
        // signature first (variant contents are checked where each variant is opened).
        try checkLimits(values)
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        var variantDepth = 0
        for value in values {
            try encode(value, as: value.type, into: &iter, variantDepth: &variantDepth)
        }
    }

    /// Appends `values`, which must have exactly the declared `types` (a handler's declared outputs).
    static func append(_ values: [Value], as types: [SignatureType], to message: OpaquePointer) throws(ValidationError) {
        guard values.count == types.count else {
            throw ValidationError(.value, "\(values.count) values where \(types.count) were declared")
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        var variantDepth = 0
        for (value, type) in zip(values, types) {
            try encode(value, as: type, into: &iter, variantDepth: &variantDepth)
        }
    }

    /// An upper estimate of the marshalled size of `values` in bytes (alignment padding included).
    ///
    /// Cheap: string lengths are O(1) for native strings and only containers are walked. The bus
    /// drops a connection that sends a message over its `max_message_size`, so a body libdbus marshals
    /// (one carrying file descriptors) is measured before it is built (``Bus/maximumOutgoingMessageSize``);
    /// ``WireMessage`` measures the others exactly once built, before libdbus sees them.
    static func estimatedSize(of values: [Value]) -> Int {
        var total = 256  // header fields: path, interface, member, destination, signature
        for value in values { total += estimatedSize(of: value) }
        return total
    }

    private static func estimatedSize(of value: Value) -> Int {
        switch value {
        case .string(let text): text.utf8.count + 8
        case .objectPath(let path): path.rawValue.utf8.count + 8
        case .signature(let signature): signature.rawValue.utf8.count + 2
        case .variant(let inner): 8 + value.type.description.utf8.count + estimatedSize(of: inner)
        case .array(_, let elements):
            elements.reduce(8) { $0 + estimatedSize(of: $1) }
        case .dictionary(_, _, let entries):
            entries.reduce(8) { $0 + 8 + estimatedSize(of: $1.key) + estimatedSize(of: $1.value) }
        case .structure(let fields): fields.reduce(8) { $0 + estimatedSize(of: $1) }
        default: 8
        }
    }

    /// Throws unless the body signature of `values` is within the spec's limits (length and nesting).
    ///
    /// Signals and replies are mostly basic types, arrays of basic types and `a{…}` of basic keys and basic
    /// or variant values. Such a body is valid when its text fits in 255 bytes (one container level is far
    /// below the nesting limits), so it is measured instead of built and parsed (~3 % of a daemon call).
    /// Anything else is checked by building the ``Signature``.
    static func checkLimits(_ values: [Value]) throws(ValidationError) {
        var length = 0
        for value in values {
            guard let shallow = shallowLength(value.type) else {
                _ = try Signature(values.map(\.type))
                return
            }
            length += shallow
        }
        if length > 255 { _ = try Signature(values.map(\.type)) }
    }

    /// The signature length of `type` if it is basic, an array of a basic type, or a dictionary of a basic key
    /// and a basic or variant value; `nil` otherwise.
    private static func shallowLength(_ type: SignatureType) -> Int? {
        switch type {
        case .array(let element): element.isBasic || element == .variant ? 2 : nil
        case .dictionary(let key, let value): key.isBasic && (value.isBasic || value == .variant) ? 5 : nil
        case .variant: 1
        case .structure: nil
        default: 1
        }
    }

    /// Checks that a signature built from `values` is within the spec's limits (length and nesting).
    static func signature(of values: [Value]) throws(ValidationError) -> Signature {
        try Signature(values.map(\.type))
    }

    static func mismatch(_ value: Value, _ expected: SignatureType) -> ValidationError {
        ValidationError(.value, "a value of type '\(value.type)' where '\(expected)' was declared")
    }

    private static func oom() -> ValidationError {
        ValidationError(.value, "out of memory while appending")
    }

    private static func appendBasic<T: BitwiseCopyable>(
        _ iter: inout DBusMessageIter, _ code: Int32, _ value: T
    ) throws(ValidationError) {
        let ok = withUnsafePointer(to: value) { dbus_message_iter_append_basic(&iter, code, $0) } != 0
        if !ok { throw oom() }
    }

    private static func appendString(
        _ iter: inout DBusMessageIter, _ code: Int32, _ string: String
    ) throws(ValidationError) {
        try NameValidation.checkString(string)
        let ok = string.withCString { pointer -> Bool in
            var cString: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, code, &cString) != 0
        }
        if !ok { throw oom() }
    }

    // Variants can nest without bound in Swift; the spec caps the total nesting depth of a message at 64.
    static let maximumVariantDepth = 64

    private static func encode(
        _ value: Value, as type: SignatureType, into iter: inout DBusMessageIter, variantDepth: inout Int
    ) throws(ValidationError) {
        switch (value, type) {
        case (.byte(let v), .byte): try appendBasic(&iter, TypeCode.byte, v)
        case (.boolean(let v), .boolean): try appendBasic(&iter, TypeCode.boolean, dbus_bool_t(v ? 1 : 0))
        case (.int16(let v), .int16): try appendBasic(&iter, TypeCode.int16, v)
        case (.uint16(let v), .uint16): try appendBasic(&iter, TypeCode.uint16, v)
        case (.int32(let v), .int32): try appendBasic(&iter, TypeCode.int32, v)
        case (.uint32(let v), .uint32): try appendBasic(&iter, TypeCode.uint32, v)
        case (.int64(let v), .int64): try appendBasic(&iter, TypeCode.int64, v)
        case (.uint64(let v), .uint64): try appendBasic(&iter, TypeCode.uint64, v)
        case (.double(let v), .double): try appendBasic(&iter, TypeCode.double, v)
        case (.unixFD(let v), .unixFD):
            guard v >= 0 else { throw ValidationError(.value, "file descriptor \(v) is negative") }
            try appendBasic(&iter, TypeCode.unixFD, v)
        case (.string(let v), .string): try appendString(&iter, TypeCode.string, v)
        case (.objectPath(let v), .objectPath): try appendString(&iter, TypeCode.objectPath, v.rawValue)
        case (.signature(let v), .signature): try appendString(&iter, TypeCode.signature, v.rawValue)
        case (.array(let elementType, let elements), .array(let declared)):
            guard elementType == declared else { throw mismatch(value, type) }
            try container(&iter, TypeCode.array, elementType.description) { (sub) throws(ValidationError) in
                if elementType == .byte {
                    try appendBytes(elements, into: &sub)
                    return
                }
                for element in elements {
                    try encode(element, as: elementType, into: &sub, variantDepth: &variantDepth)
                }
            }
        case (.dictionary(let keyType, let valueType, let entries), .dictionary(let declaredKey, let declaredValue)):
            guard keyType == declaredKey, valueType == declaredValue, keyType.isBasic else {
                throw mismatch(value, type)
            }
            let entrySignature = "{\(keyType)\(valueType)}"
            try container(&iter, TypeCode.array, entrySignature) { (sub) throws(ValidationError) in
                for entry in entries {
                    try container(&sub, TypeCode.dictEntry, nil) { (pair) throws(ValidationError) in
                        try encode(entry.key, as: keyType, into: &pair, variantDepth: &variantDepth)
                        try encode(entry.value, as: valueType, into: &pair, variantDepth: &variantDepth)
                    }
                }
            }
        case (.structure(let fields), .structure(let declared)):
            guard !fields.isEmpty, fields.count == declared.count else { throw mismatch(value, type) }
            try container(&iter, TypeCode.structure, nil) { (sub) throws(ValidationError) in
                for (field, fieldType) in zip(fields, declared) {
                    try encode(field, as: fieldType, into: &sub, variantDepth: &variantDepth)
                }
            }
        case (.variant(let inner), .variant):
            variantDepth += 1
            defer { variantDepth -= 1 }
            guard variantDepth <= maximumVariantDepth else {
                throw ValidationError(.value, "variants nested deeper than \(maximumVariantDepth)")
            }
            let innerType = inner.type
            // Validates the inner signature's length and nesting before libdbus sees it; a basic type's
            // one-character signature is always valid (the common case: property values).
            let innerSignature = innerType.isBasic ? innerType.description : try Signature([innerType]).rawValue
            try container(&iter, TypeCode.variant, innerSignature) { (sub) throws(ValidationError) in
                try encode(inner, as: innerType, into: &sub, variantDepth: &variantDepth)
            }
        default:
            throw mismatch(value, type)
        }
    }

    /// `ay` is common (blobs) and libdbus has a one-call path for fixed-size arrays.
    private static func appendBytes(_ elements: [Value], into iter: inout DBusMessageIter) throws(ValidationError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(elements.count)
        for element in elements {
            guard case .byte(let b) = element else { throw mismatch(element, .byte) }
            bytes.append(b)
        }
        let ok = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var base = buffer.baseAddress
            return dbus_message_iter_append_fixed_array(&iter, TypeCode.byte, &base, Int32(buffer.count)) != 0
        }
        if !ok { throw oom() }
    }

    private static func container(
        _ iter: inout DBusMessageIter, _ code: Int32, _ contained: String?,
        _ body: (inout DBusMessageIter) throws(ValidationError) -> Void
    ) throws(ValidationError) {
        var sub = DBusMessageIter()
        let opened: Bool
        if let contained {
            opened = contained.withCString { dbus_message_iter_open_container(&iter, code, $0, &sub) } != 0
        } else {
            opened = dbus_message_iter_open_container(&iter, code, nil, &sub) != 0
        }
        guard opened else { throw oom() }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        if dbus_message_iter_close_container(&iter, &sub) == 0 { throw oom() }
    }
}
