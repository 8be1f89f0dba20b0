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
        var text = ""
        append(to: &text)
        return text
    }

    /// Whether this is a basic type (allowed as a dict key).
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    func append(to text: inout String) {
        switch self {
        case .byte: text += "y"
        case .boolean: text += "b"
        case .int16: text += "n"
        case .uint16: text += "q"
        case .int32: text += "i"
        case .uint32: text += "u"
        case .int64: text += "x"
        case .uint64: text += "t"
        case .double: text += "d"
        case .string: text += "s"
        case .objectPath: text += "o"
        case .signature: text += "g"
        case .unixFD: text += "h"
        case .variant: text += "v"
        case .array(let element):
            text += "a"
            element.append(to: &text)
        case .dictionary(let key, let value):
            text += "a{"
            key.append(to: &text)
            value.append(to: &text)
            text += "}"
        case .structure(let fields):
            text += "("
            for field in fields { field.append(to: &text) }
            text += ")"
        }
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
