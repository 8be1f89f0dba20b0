import Testing

@testable import DBusKit

/// `Value.hasType(_:)` answers what comparing `Value.type` answers, without building the type.
struct ValueTypeTests {
    static let values: [Value] = [
        .byte(1), .boolean(true), .int16(-1), .uint16(1), .int32(-1), .uint32(1), .int64(-1), .uint64(1), .double(0.5),
        .string("s"), .objectPath(ObjectPath(trusted: "/a")), .unixFD(0), .variant(.string("v")),
        .array(.uint64, [.uint64(1)]), .array(.string, []), .array(.array(.byte), []),
        .dictionary(key: .string, value: .variant, [DictionaryEntry(.string("k"), .variant(.boolean(true)))]),
        .dictionary(key: .uint32, value: .string, []),
        .structure([.string("a"), .uint32(1)]), .structure([.string("a"), .array(.uint64, [])]),
    ]

    @Test func hasTypeAgreesWithComparingTheBuiltTypeForEveryPair() {
        let types = Self.values.map(\.type) + [.structure([.string]), .dictionary(key: .string, value: .string)]
        for value in Self.values {
            for type in types {
                #expect(value.hasType(type) == (value.type == type), "\(value) as \(type)")
            }
        }
    }
}
