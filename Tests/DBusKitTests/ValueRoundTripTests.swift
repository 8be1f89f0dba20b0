@testable import DBusKit
import Glibc
import Testing

struct ValueRoundTripTests {
    static let basics: [Value] = [
        .byte(0), .byte(255), .boolean(true), .boolean(false), .int16(.min), .uint16(.max), .int32(-7),
        .uint32(.max), .int64(.min), .uint64(.max), .double(3.25), .double(-0.5), .string(""), .string("héllo ✓"),
        .objectPath(.root), .signature(.empty),
    ]

    @Test(arguments: basics)
    func everyBasicTypeRoundTrips(_ value: Value) throws {
        #expect(try MessageCodec.roundTrip([value]) == [value])
    }

    @Test func pathsAndSignaturesRoundTrip() throws {
        let values: [Value] = [.objectPath(try ObjectPath("/a/b_c/9")), .signature(try Signature("a{sv}(ia(s))"))]
        #expect(try MessageCodec.roundTrip(values) == values)
    }

    @Test func emptyArraysKeepTheirElementSignature() throws {
        let values: [Value] = [
            .array(.int32, []), .array(.string, []), .array(.byte, []), .dictionary(key: .string, value: .variant, []),
            .array(.structure([.int32, .string]), []),
        ]
        #expect(try MessageCodec.signature(of: values) == "aiasaya{sv}a(is)")
        #expect(try MessageCodec.roundTrip(values) == values)
    }

    @Test func nestedContainersRoundTrip() throws {
        let value: Value = .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .variant), [
            DictionaryEntry(.objectPath(try ObjectPath("/w/1")), .options([
                ("title", .string("Home")),
                ("stack", .array(.structure([.uint32, .string]), [.structure([.uint32(1), .string("root")])])),
                ("nested", .variant(.variant(.array(.array(.byte), [.array(.byte, [.byte(1), .byte(2)])])))),
            ])),
        ])
        #expect(try MessageCodec.roundTrip([value]) == [value])
    }

    /// Arrays and dictionaries of one-character types are typed from their type codes (the decoder's shortcut);
    /// every basic key and value type, and variants, must come back with the declared types.
    @Test(arguments: basics)
    func arraysAndDictionariesOfEveryLeafTypeRoundTrip(_ value: Value) throws {
        var values: [Value] = [.array(value.type, [value, value]), .array(.variant, [.variant(value)])]
        if value.type.isBasic {
            values.append(.dictionary(key: value.type, value: .string, [DictionaryEntry(value, .string("k"))]))
            values.append(.dictionary(key: .string, value: value.type, [DictionaryEntry(.string("v"), value)]))
            values.append(.dictionary(key: .uint32, value: .variant, [DictionaryEntry(.uint32(1), .variant(value))]))
        }
        #expect(try MessageCodec.roundTrip(values) == values)
    }

    @Test func byteArraysUseTheFixedArrayPathAndRoundTrip() throws {
        let value: Value = .array(.byte, (0..<1000).map { .byte(UInt8($0 % 256)) })
        #expect(try MessageCodec.roundTrip([value]) == [value])
    }

    @Test func thirtyTwoNestedArraysRoundTrip() throws {
        var value: Value = .array(.int32, [.int32(1)])
        var type = SignatureType.array(.int32)
        for _ in 1..<32 {
            value = .array(type, [value])
            type = .array(type)
        }
        #expect(try MessageCodec.roundTrip([value]) == [value])
    }

    @Test func thirtyThreeNestedArraysAreRejectedBeforeLibdbus() throws {
        var value: Value = .array(.int32, [])
        var type = SignatureType.array(.int32)
        for _ in 1..<33 {
            value = .array(type, [value])
            type = .array(type)
        }
        let nested: Value = .variant(value)
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([nested]) }
    }

    @Test func topLevelValuesNestedTooDeeplyAreRejectedBeforeLibdbus() {
        var value: Value = .array(.int32, [])
        for _ in 0..<40 { value = .array(value.type, [value]) }
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([value]) }
    }

    @Test func stringsWithNULAreRejectedBeforeLibdbus() {
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([.string("a\0b")]) }
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([.strings(["ok", "bad\0"])]) }
    }

    @Test func invalidUTF8BytesNeverBecomeStrings() throws {
        // Swift repairs invalid UTF-8 when decoding bytes, so what reaches libdbus is always valid.
        let repaired = String(decoding: [0xFF, 0xFE, 0x41], as: UTF8.self)
        #expect(try MessageCodec.roundTrip([.string(repaired)]) == [.string(repaired)])
        #expect(String(validating: [0xFF, 0xFE] as [UInt8], as: UTF8.self) == nil)
    }

    @Test func elementsOfTheWrongTypeAreRejected() {
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([.array(.int32, [.string("x")])]) }
        #expect(throws: ValidationError.self) {
            try MessageCodec.roundTrip([.dictionary(key: .string, value: .int32, [DictionaryEntry(.int32(1), .int32(1))])])
        }
    }

    @Test func containerKeysMustBeBasic() {
        #expect(throws: ValidationError.self) {
            try MessageCodec.roundTrip([.dictionary(key: .variant, value: .int32, [])])
        }
    }

    @Test func emptyStructsAreRejected() {
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([.structure([])]) }
    }

    @Test func unixFDsRoundTripAsNewDescriptors() throws {
        let decoded = try MessageCodec.roundTrip([.unixFD(1)], throughWireFormat: false)
        let fd = try #require(decoded.first.flatMap { if case .unixFD(let fd) = $0 { fd } else { nil } })
        #expect(fd > 2)
        #expect(close(fd) == 0)
    }

    @Test func negativeUnixFDsAreRejected() {
        #expect(throws: ValidationError.self) { try MessageCodec.roundTrip([.unixFD(-1)], throughWireFormat: false) }
    }
}
