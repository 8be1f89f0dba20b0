/// A D-Bus value of any type, as a Swift value.
///
/// Containers carry their element types, so an empty array still knows its signature (`ai` vs `as`).
/// Values are checked against their declared types when they are sent; a mismatch throws
/// ``ValidationError`` instead of reaching libdbus.
///
/// ```swift
/// let options: Value = .dictionary(key: .string, value: .variant, [
///     DictionaryEntry(.string("animated"), .variant(.boolean(true))),
/// ])
/// ```
///
/// Only `variant`, which holds a value, and `dictionary`, whose three payloads would widen every value, are
/// `indirect`: a scalar, a string or an array then needs no heap box of its own, and a service builds dozens
/// of them for every change it announces.
public enum Value: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`: must not contain NUL.
    case string(String)
    /// `o`
    case objectPath(ObjectPath)
    /// `g`
    case signature(Signature)
    /// `h`: a file descriptor. Decoded descriptors are new duplicates the receiver must close.
    case unixFD(Int32)
    /// `aT`: every element must have type `T`.
    case array(SignatureType, [Value])
    /// `a{KV}`: entries in wire order; keys must have type `K`, values type `V`.
    indirect case dictionary(key: SignatureType, value: SignatureType, [DictionaryEntry])
    /// `(...)`: at least one field.
    case structure([Value])
    /// `v`: any single value, tagged with its own type.
    indirect case variant(Value)

    /// The value's complete type.
    public var type: SignatureType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// Whether ``type`` is `type`, found without building it: ``type`` allocates a box for every container it
    /// describes, and a service checks each property value it announces.
    public func hasType(_ type: SignatureType) -> Bool {
        switch (self, type) {
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
             (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.string, .string),
             (.objectPath, .objectPath), (.signature, .signature), (.unixFD, .unixFD), (.variant, .variant):
            true
        case (.array(let element, _), .array(let expected)):
            element == expected
        case (.dictionary(let key, let value, _), .dictionary(let expectedKey, let expectedValue)):
            key == expectedKey && value == expectedValue
        case (.structure(let fields), .structure(let expected)):
            fields.count == expected.count && zip(fields, expected).allSatisfy { $0.hasType($1) }
        default:
            false
        }
    }
}

/// One key/value pair of a D-Bus dictionary (`{KV}`).
public struct DictionaryEntry: Sendable, Hashable {
    /// The key; must be a basic type.
    public var key: Value
    /// The value.
    public var value: Value

    /// Creates an entry.
    public init(_ key: Value, _ value: Value) {
        self.key = key
        self.value = value
    }
}
