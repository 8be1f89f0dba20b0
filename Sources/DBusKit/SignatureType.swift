/// One complete D-Bus type, e.g. `s`, `a{sv}` or `(iu)`.
///
/// ```swift
/// let options: SignatureType = .dictionary(key: .string, value: .variant)   // a{sv}
/// ```
public indirect enum SignatureType: Sendable, Hashable, CustomStringConvertible {
    /// `y`
    case byte
    /// `b`
    case boolean
    /// `n`
    case int16
    /// `q`
    case uint16
    /// `i`
    case int32
    /// `u`
    case uint32
    /// `x`
    case int64
    /// `t`
    case uint64
    /// `d`
    case double
    /// `s`
    case string
    /// `o`
    case objectPath
    /// `g`
    case signature
    /// `h`
    case unixFD
    /// `v`
    case variant
    /// `aT`
    case array(SignatureType)
    /// `a{KV}`: an array of dict entries. The key must be a basic type.
    case dictionary(key: SignatureType, value: SignatureType)
    /// `(T...)`: at least one field.
    case structure([SignatureType])

    /// The type's signature text, e.g. `a{sv}`.
    public var description: String {
        var bytes: [UInt8] = []
        appendSignature(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether this is a basic type (allowed as a dict key).
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    /// Appends the type's signature bytes (ASCII), e.g. `a{sv}`.
    func appendSignature(to bytes: inout [UInt8]) {
        switch self {
        case .array(let element):
            bytes.append(UInt8(ascii: "a"))
            element.appendSignature(to: &bytes)
        case .dictionary(let key, let value):
            Self.appendDictionarySignature(key: key, value: value, to: &bytes)
        case .structure(let fields):
            bytes.append(UInt8(ascii: "("))
            for field in fields { field.appendSignature(to: &bytes) }
            bytes.append(UInt8(ascii: ")"))
        default:
            bytes.append(typeCode)
        }
    }

    /// `a{KV}`, for a dictionary type and for a dictionary value (which carries its key and value types).
    static func appendDictionarySignature(key: SignatureType, value: SignatureType, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "a"))
        bytes.append(UInt8(ascii: "{"))
        key.appendSignature(to: &bytes)
        value.appendSignature(to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// The type code libdbus uses for this type's first byte.
    var typeCode: UInt8 {
        switch self {
        case .byte: UInt8(ascii: "y")
        case .boolean: UInt8(ascii: "b")
        case .int16: UInt8(ascii: "n")
        case .uint16: UInt8(ascii: "q")
        case .int32: UInt8(ascii: "i")
        case .uint32: UInt8(ascii: "u")
        case .int64: UInt8(ascii: "x")
        case .uint64: UInt8(ascii: "t")
        case .double: UInt8(ascii: "d")
        case .string: UInt8(ascii: "s")
        case .objectPath: UInt8(ascii: "o")
        case .signature: UInt8(ascii: "g")
        case .unixFD: UInt8(ascii: "h")
        case .variant: UInt8(ascii: "v")
        case .array, .dictionary: UInt8(ascii: "a")
        case .structure: UInt8(ascii: "r")
        }
    }
}
