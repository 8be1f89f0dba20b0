import Testing

@testable import DBusKit

/// `PropertiesChanged`'s body written straight from names and values is the body of the values it stands for.
struct PropertiesChangedBodyTests {
    static let cases: [([(MemberName, Value)], [MemberName])] = [
        ([(MemberName(trusted: "Title"), .string("Log in"))], []),
        ([], [MemberName(trusted: "Routes")]),
        ([(MemberName(trusted: "Version"), .uint64(7)), (MemberName(trusted: "CanPop"), .boolean(true)),
          (MemberName(trusted: "VisibleModels"), .array(.uint64, [.uint64(3), .uint64(4)])),
          (MemberName(trusted: "Empty"), .array(.string, [])),
          (MemberName(trusted: "Pair"), .structure([.byte(1), .double(0.5)])),
          (MemberName(trusted: "Nested"), .variant(.dictionary(key: .string, value: .int32, [
              DictionaryEntry(.string("a"), .int32(-1)),
          ]))),
         ], [MemberName(trusted: "Routes"), MemberName(trusted: "Prepared")]),
    ]

    @Test(arguments: 0..<cases.count)
    func theDirectBodyIsTheGenericOnesBytes(_ index: Int) throws {
        let (changed, invalidated) = Self.cases[index]
        let direct = try #require(try WireMessage.Body(
            propertiesOf: "org.navsession.Window1", changed: changed.map { (name: $0.0, value: $0.1) },
            invalidated: invalidated))
        let generic = try #require(try WireMessage.Body([
            .string("org.navsession.Window1"),
            .dictionary(key: .string, value: .variant, changed.map { DictionaryEntry(.string($0.0.rawValue), .variant($0.1)) }),
            .array(.string, invalidated.map { .string($0.rawValue) }),
        ]))
        func message(_ body: WireMessage.Body) -> [UInt8] {
            WireMessage.assemble(
                .signal, serial: 9, path: ObjectPath(trusted: "/w"), interface: .properties,
                member: MemberName(trusted: "PropertiesChanged"), body: body
            ).bytes
        }
        #expect(message(direct) == message(generic))
    }

    @Test func aValueHoldingADescriptorLeavesItToLibdbus() throws {
        #expect(try WireMessage.Body(
            propertiesOf: "org.example.I", changed: [(name: MemberName(trusted: "Fd"), value: .unixFD(0))], invalidated: []) == nil)
    }
}
