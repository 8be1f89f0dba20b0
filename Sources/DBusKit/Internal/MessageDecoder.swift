internal import CDBus

/// Reads a libdbus message body into ``Value``s.
///
/// Received messages were validated by libdbus (and the bus), so decoding cannot meet malformed data; the
/// only failure is an application limit on array lengths, which becomes `LimitsExceeded`.
struct MessageDecoder {
    /// The most elements any single array (or dictionary) in the message may have.
    var maximumArrayLength: Int = .max
    /// Where decoded descriptors are recorded for closing (incoming calls); `nil` hands them to the caller.
    var descriptorLog: DescriptorLog? = nil

    func decodeBody(of message: OpaquePointer) throws(BusError) -> [Value] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [Value] = []
        repeat {
            values.append(try decode(&iter))
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    private func basic(_ iter: inout DBusMessageIter) -> DBusBasicValue {
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private func string(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// The type of the array at `iter`.
    private func type(_ iter: inout DBusMessageIter) -> SignatureType {
        // Arrays of single-character types and non-empty dictionaries of them (`as`, `at`, `a{ss}`, `a{sv}`, the
        // arguments of nearly every call) are typed from their type codes; building and parsing the signature
        // text costs an allocation and the parser's code on every call.
        let element = dbus_message_iter_get_element_type(&iter)
        if let leaf = Self.leafType(element) { return .array(leaf) }
        if element == TypeCode.dictEntry {
            var entries = DBusMessageIter()
            var pair = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &entries)
            if dbus_message_iter_get_arg_type(&entries) == TypeCode.dictEntry {
                dbus_message_iter_recurse(&entries, &pair)
                let key = Self.leafType(dbus_message_iter_get_arg_type(&pair))
                dbus_message_iter_next(&pair)
                if let key, let value = Self.leafType(dbus_message_iter_get_arg_type(&pair)) {
                    return .dictionary(key: key, value: value)
                }
            }
        }
        // The signature of a received message is valid, so parsing cannot fail; `.variant` is a safe stand-in.
        guard let raw = dbus_message_iter_get_signature(&iter) else { return .variant }
        defer { dbus_free(raw) }
        var parser = SignatureParser(String(cString: raw))
        return (try? parser.parseAll())?.first ?? .variant
    }

    /// The type of a one-character type code (basic types and variants); `nil` for containers.
    private static func leafType(_ code: Int32) -> SignatureType? {
        switch code {
        case TypeCode.byte: .byte
        case TypeCode.boolean: .boolean
        case TypeCode.int16: .int16
        case TypeCode.uint16: .uint16
        case TypeCode.int32: .int32
        case TypeCode.uint32: .uint32
        case TypeCode.int64: .int64
        case TypeCode.uint64: .uint64
        case TypeCode.double: .double
        case TypeCode.string: .string
        case TypeCode.objectPath: .objectPath
        case TypeCode.signature: .signature
        case TypeCode.unixFD: .unixFD
        case TypeCode.variant: .variant
        default: nil
        }
    }

    private func decode(_ iter: inout DBusMessageIter) throws(BusError) -> Value {
        let code = dbus_message_iter_get_arg_type(&iter)
        switch code {
        case TypeCode.byte: return .byte(basic(&iter).byt)
        case TypeCode.boolean: return .boolean(basic(&iter).bool_val != 0)
        case TypeCode.int16: return .int16(basic(&iter).i16)
        case TypeCode.uint16: return .uint16(basic(&iter).u16)
        case TypeCode.int32: return .int32(basic(&iter).i32)
        case TypeCode.uint32: return .uint32(basic(&iter).u32)
        case TypeCode.int64: return .int64(Int64(basic(&iter).i64))
        case TypeCode.uint64: return .uint64(UInt64(basic(&iter).u64))
        case TypeCode.double: return .double(basic(&iter).dbl)
        case TypeCode.unixFD:
            let descriptor = basic(&iter).fd
            descriptorLog?.record(descriptor)
            return .unixFD(descriptor)
        case TypeCode.string: return .string(string(&iter))
        case TypeCode.objectPath: return .objectPath(ObjectPath(trusted: string(&iter)))
        case TypeCode.signature:
            let text = string(&iter)
            var parser = SignatureParser(text)
            return .signature(Signature(trusted: text, types: (try? parser.parseAll()) ?? []))
        case TypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try decode(&sub))
        case TypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            var fields: [Value] = []
            while dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid {
                fields.append(try decode(&sub))
                dbus_message_iter_next(&sub)
            }
            return .structure(fields)
        case TypeCode.array:
            return try decodeArray(&iter)
        default:
            // Unreachable for a valid message; a neutral value keeps remote input from ever trapping.
            return .structure([])
        }
    }

    private func tooLong() -> BusError {
        BusError(.limitsExceeded, "an array has more than \(maximumArrayLength) elements")
    }

    private func decodeArray(_ iter: inout DBusMessageIter) throws(BusError) -> Value {
        let arrayType = type(&iter)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        switch arrayType {
        case .dictionary(let keyType, let valueType):
            var entries: [DictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == TypeCode.dictEntry {
                guard entries.count < maximumArrayLength else { throw tooLong() }
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let key = try decode(&pair)
                dbus_message_iter_next(&pair)
                let value = try decode(&pair)
                entries.append(DictionaryEntry(key, value))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(key: keyType, value: valueType, entries)
        case .array(.byte):
            var base: UnsafeRawPointer? = nil
            var count: Int32 = 0
            if dbus_message_iter_get_arg_type(&sub) == TypeCode.byte {
                dbus_message_iter_get_fixed_array(&sub, &base, &count)
            }
            guard Int(count) <= maximumArrayLength else { throw tooLong() }
            guard let base, count > 0 else { return .array(.byte, []) }
            let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: Int(count))
            return .array(.byte, bytes.map(Value.byte))
        case .array(let elementType):
            var elements: [Value] = []
            while dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid {
                guard elements.count < maximumArrayLength else { throw tooLong() }
                elements.append(try decode(&sub))
                dbus_message_iter_next(&sub)
            }
            return .array(elementType, elements)
        default:
            return .array(.variant, [])
        }
    }
}
