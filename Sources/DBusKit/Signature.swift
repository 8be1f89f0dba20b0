/// A validated D-Bus type signature: zero or more complete types, e.g. `sa{sv}as`.
///
/// Limits (D-Bus spec): at most 255 bytes, 32 nested arrays and 32 nested structs/dict entries.
/// Valid: ``, `s`, `a{sv}`, `(ia(s))`. Invalid: `a`, `()`, `{sv}`, `a{vs}` (variant key), `(i`, `z`.
///
/// ```swift
/// let signature = try Signature("a{sv}")
/// signature.types   // [.dictionary(key: .string, value: .variant)]
/// ```
public struct Signature: Sendable, Hashable, CustomStringConvertible {
    /// The signature text.
    public let rawValue: String
    /// The complete types it contains, in order.
    public let types: [SignatureType]

    /// Parses and validates a signature.
    /// - Throws: ``ValidationError`` with kind ``ValidationError/Kind/signature``.
    public init(_ rawValue: String) throws(ValidationError) {
        var parser = SignatureParser(rawValue)
        self.types = try parser.parseAll()
        self.rawValue = rawValue
    }

    /// Builds a signature from types, checking the length and nesting limits.
    /// - Throws: ``ValidationError`` when the result exceeds the spec's limits.
    public init(_ types: [SignatureType]) throws(ValidationError) {
        var bytes: [UInt8] = []
        for type in types { type.appendSignature(to: &bytes) }
        try self.init(String(decoding: bytes, as: UTF8.self))
    }

    init(trusted rawValue: String, types: [SignatureType]) {
        self.rawValue = rawValue
        self.types = types
    }

    /// The empty signature.
    public static let empty = Signature(trusted: "", types: [])

    /// A readable form for logs and messages.
    public var description: String { rawValue }

    /// Signatures are equal when their text is.
    public static func == (lhs: Signature, rhs: Signature) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the signature text.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension SignatureType {
    /// Parses exactly one complete type, e.g. `a{sv}`.
    /// - Throws: ``ValidationError`` when `text` is invalid or holds more or less than one complete type.
    public init(parsing text: String) throws(ValidationError) {
        let signature = try Signature(text)
        guard signature.types.count == 1, let only = signature.types.first else {
            throw ValidationError(.signature, "\(quoted(text)) is not a single complete type")
        }
        self = only
    }
}

/// A recursive-descent parser over the signature's bytes that enforces the spec's limits as it goes.
struct SignatureParser {
    static let maximumLength = 255
    static let maximumArrayDepth = 32
    static let maximumStructDepth = 32

    private let bytes: [UInt8]
    private let text: String
    private var index = 0
    private var arrayDepth = 0
    private var structDepth = 0

    init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    mutating func parseAll() throws(ValidationError) -> [SignatureType] {
        guard bytes.count <= Self.maximumLength else {
            throw fail("is longer than \(Self.maximumLength) bytes")
        }
        var types: [SignatureType] = []
        while index < bytes.count {
            types.append(try parseOne())
        }
        return types
    }

    private func fail(_ reason: String) -> ValidationError {
        ValidationError(.signature, "\(quoted(text)) \(reason)")
    }

    private mutating func parseOne() throws(ValidationError) -> SignatureType {
        guard index < bytes.count else { throw fail("ends in the middle of a type") }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            arrayDepth += 1
            defer { arrayDepth -= 1 }
            guard arrayDepth <= Self.maximumArrayDepth else {
                throw fail("nests more than \(Self.maximumArrayDepth) arrays")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                index += 1
                return try parseDictEntry()
            }
            return .array(try parseOne())
        case UInt8(ascii: "("):
            structDepth += 1
            defer { structDepth -= 1 }
            guard structDepth <= Self.maximumStructDepth else {
                throw fail("nests more than \(Self.maximumStructDepth) structs")
            }
            var fields: [SignatureType] = []
            while true {
                guard index < bytes.count else { throw fail("has an unclosed '('") }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    break
                }
                fields.append(try parseOne())
            }
            guard !fields.isEmpty else { throw fail("has an empty struct '()'") }
            return .structure(fields)
        case UInt8(ascii: "{"):
            throw fail("has a dict entry outside an array")
        default:
            throw fail("has an unknown type code at byte \(index - 1)")
        }
    }

    /// Parses `KV}` after `a{`; dict entries count towards the struct depth like the spec says.
    private mutating func parseDictEntry() throws(ValidationError) -> SignatureType {
        structDepth += 1
        defer { structDepth -= 1 }
        guard structDepth <= Self.maximumStructDepth else {
            throw fail("nests more than \(Self.maximumStructDepth) structs")
        }
        let key = try parseOne()
        guard key.isBasic else { throw fail("has a dict key that is not a basic type") }
        let value = try parseOne()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
            throw fail("has a dict entry that is not exactly one key and one value")
        }
        index += 1
        return .dictionary(key: key, value: value)
    }
}
