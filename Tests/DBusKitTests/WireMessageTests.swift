@testable import DBusKit
import DBusTestSupport
import Testing

/// DBusKit marshals outgoing signals and returns itself (``WireMessage``); libdbus's iterator is the
/// reference: the same values must give the same body bytes, and read back unchanged.
struct WireMessageTests {
    @Test func theDaemonsSignalsMarshalAsLibdbusDoes() throws {
        let changed: [Value] = [
            .uint64(7), .uint64(6), .string(#"{"commands":[]}"#), .boolean(true), .array(.uint64, [.uint64(9)]),
            .array(.uint64, []), .string(#"[{"kind":"push"}]"#),
        ]
        let properties: [Value] = [
            .string("org.navsession.Window1"),
            .dictionary(key: .string, value: .variant, [
                DictionaryEntry(.string("Version"), .variant(.uint64(7))),
                DictionaryEntry(.string("Title"), .variant(.string("Détail"))),
                DictionaryEntry(.string("CanPop"), .variant(.boolean(true))),
            ]),
            .array(.string, [.string("Routes")]),
        ]
        for values in [changed, properties, [.uint64(1)], []] {
            let bodies = try MessageCodec.bodies(values)
            #expect(bodies.wire == bodies.libdbus)
            #expect(bodies.typed == bodies.libdbus)
            #expect(bodies.decoded == values)
        }
    }

    @Test func randomValuesMarshalAsLibdbusDoes() throws {
        var seeds = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &seeds)
        var random = SplitMix64(seed: seed)
        for _ in 0..<400 {
            let values = (0..<Int.random(in: 0...6, using: &random)).map { _ in RandomValue.make(depth: 0, using: &random) }
            let bodies = try MessageCodec.bodies(values)
            #expect(bodies.wire == bodies.libdbus, "seed \(seed): \(values)")
            #expect(bodies.typed == bodies.libdbus, "seed \(seed): \(values)")
            #expect(bodies.decoded == values, "seed \(seed)")
        }
    }

    @Test func aStringWithNULIsRefusedBeforeLibdbusSeesIt() {
        #expect(throws: ValidationError.self) {
            _ = try WireMessage.make(
                .signal, serial: WireMessage.firstSerial, path: .root, interface: try InterfaceName("a.b"),
                member: try MemberName("C"), body: [.string("a\u{0}b")], types: [.string])
        }
        #expect(throws: ValidationError.self) {
            _ = try WireMessage.make(
                .signal, serial: WireMessage.firstSerial, path: .root, interface: try InterfaceName("a.b"),
                member: try MemberName("C"), body: [.variant(.string("a\u{0}b"))])
        }
    }

    @Test func nestingPastTheSpecsDepthIsRefusedBeforeLibdbusSeesIt() {
        var value = Value.uint32(1)
        for _ in 0..<(WireMessage.maximumDepth + 1) { value = .variant(value) }
        #expect(throws: ValidationError.self) {
            _ = try WireMessage.make(
                .signal, serial: WireMessage.firstSerial, path: .root, interface: try InterfaceName("a.b"),
                member: try MemberName("C"), body: [value])
        }
    }

    @Test func aSignatureLibdbusRefusesIsAnErrorNotACrash() {
        // 33 nested arrays: the bytes are well formed, the spec's array nesting limit (32) is libdbus's check.
        var value = Value.array(.uint32, [])
        var type = SignatureType.array(.uint32)
        for _ in 0..<32 {
            value = .array(type, [value])
            type = .array(type)
        }
        #expect(throws: ValidationError.self) {
            _ = try WireMessage.make(
                .signal, serial: WireMessage.firstSerial, path: .root, interface: try InterfaceName("a.b"),
                member: try MemberName("C"), body: [value])
        }
    }

    @Test func valuesWithADescriptorAreLeftToLibdbus() throws {
        let message = try WireMessage.make(
            .signal, serial: WireMessage.firstSerial, path: .root, interface: try InterfaceName("a.b"),
            member: try MemberName("C"), body: [.variant(.unixFD(0))], types: [.variant])
        #expect(message == nil)
        let untyped = try WireMessage.make(
            .signal, serial: WireMessage.firstSerial, path: .root, interface: try InterfaceName("a.b"),
            member: try MemberName("C"), body: [.array(.unixFD, [.unixFD(0)])])
        #expect(untyped == nil)
    }
}

/// Random values of every type D-Bus has, nested a few levels (no descriptors: they travel beside the bytes).
enum RandomValue {
    static func make(depth: Int, using random: inout SplitMix64) -> Value {
        let kinds = depth >= 3 ? 12 : 17
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .byte(UInt8.random(in: 0...255, using: &random))
        case 1: return .boolean(Bool.random(using: &random))
        case 2: return .int16(Int16.random(in: .min ... .max, using: &random))
        case 3: return .uint16(UInt16.random(in: 0 ... .max, using: &random))
        case 4: return .int32(Int32.random(in: .min ... .max, using: &random))
        case 5: return .uint32(UInt32.random(in: 0 ... .max, using: &random))
        case 6: return .int64(Int64.random(in: .min ... .max, using: &random))
        case 7: return .uint64(UInt64.random(in: 0 ... .max, using: &random))
        case 8: return .double(Double(Int32.random(in: .min ... .max, using: &random)) / 7)
        case 9: return .string(text(using: &random))
        case 10: return .objectPath((try? ObjectPath("/" + (0..<Int.random(in: 1...3, using: &random)).map { "p\($0)" }.joined(separator: "/"))) ?? .root)
        case 11: return .signature((try? Signature(["s", "a{sv}", "(iu)", ""].randomElement(using: &random)!)) ?? .empty)
        case 12:
            let element = make(depth: depth + 1, using: &random)
            let count = Int.random(in: 0...3, using: &random)
            // Elements of one array share a type: repeat the first with fresh basic contents where possible.
            return .array(element.type, (0..<count).map { _ in element })
        case 13:
            let entries = (0..<Int.random(in: 0...3, using: &random)).map { index in
                DictionaryEntry(.string("k\(index)"), .variant(make(depth: depth + 1, using: &random)))
            }
            return .dictionary(key: .string, value: .variant, entries)
        case 14:
            return .structure((0..<Int.random(in: 1...3, using: &random)).map { _ in make(depth: depth + 1, using: &random) })
        case 15: return .variant(make(depth: depth + 1, using: &random))
        default:
            let entries = (0..<Int.random(in: 0...3, using: &random)).map { index in
                DictionaryEntry(.uint32(UInt32(index)), .string(text(using: &random)))
            }
            return .dictionary(key: .uint32, value: .string, entries)
        }
    }

    static func text(using random: inout SplitMix64) -> String {
        let pool = ["", "a", "héllo", "✓✓", "x y", "\u{1F600}", "long text with spaces"]
        return pool.randomElement(using: &random)!
    }
}
