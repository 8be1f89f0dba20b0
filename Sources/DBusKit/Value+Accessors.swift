/// Typed views of a ``Value`` for handlers: each returns `nil` when the value has a different type.
extension Value {
    /// The payload of `.string`.
    public var string: String? { if case .string(let v) = self { v } else { nil } }
    /// The payload of `.boolean`.
    public var bool: Bool? { if case .boolean(let v) = self { v } else { nil } }
    /// The payload of `.byte`.
    public var byte: UInt8? { if case .byte(let v) = self { v } else { nil } }
    /// The payload of `.int32`.
    public var int32: Int32? { if case .int32(let v) = self { v } else { nil } }
    /// The payload of `.uint32`.
    public var uint32: UInt32? { if case .uint32(let v) = self { v } else { nil } }
    /// The payload of `.int64`.
    public var int64: Int64? { if case .int64(let v) = self { v } else { nil } }
    /// The payload of `.uint64`.
    public var uint64: UInt64? { if case .uint64(let v) = self { v } else { nil } }
    /// The payload of `.double`.
    public var double: Double? { if case .double(let v) = self { v } else { nil } }
    /// The payload of `.objectPath`.
    public var objectPath: ObjectPath? { if case .objectPath(let v) = self { v } else { nil } }
    /// The content of `.variant`.
    public var variantValue: Value? { if case .variant(let v) = self { v } else { nil } }
    /// The elements of `.array`.
    public var arrayElements: [Value]? { if case .array(_, let v) = self { v } else { nil } }
    /// The entries of `.dictionary`.
    public var dictionaryEntries: [DictionaryEntry]? {
        if case .dictionary(_, _, let v) = self { v } else { nil }
    }
    /// The fields of `.structure`.
    public var structureFields: [Value]? { if case .structure(let v) = self { v } else { nil } }

    /// An `as` array built from strings.
    public static func strings(_ strings: [String]) -> Value { .array(.string, strings.map(Value.string)) }

    /// An `a{sv}` dictionary built from string keys, in the given order.
    public static func options(_ pairs: [(String, Value)]) -> Value {
        .dictionary(key: .string, value: .variant, pairs.map { DictionaryEntry(.string($0.0), .variant($0.1)) })
    }
}
