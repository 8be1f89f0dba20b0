import DBusKit
import DBusTestSupport
import Testing

/// Every error the object server sends, each followed by a successful call to show the service still answers.
@Suite struct ErrorReplyTests {
    func withFixture(_ body: (TestFixture, Bus) async throws -> Void) async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        try await body(fixture, client)
        let echo = try await fixture.call(client, "Echo", [.string("still here")])
        #expect(echo == [.string("still here")])
        await client.close()
        await fixture.stop()
    }

    @Test func wrongSignatureRepliesInvalidArgsNamingBothSignatures() async throws {
        try await withFixture { fixture, client in
            let error = await busError { try await fixture.call(client, "Echo", [.int32(1)]) }
            #expect(error?.name == .invalidArgs)
            #expect(error?.message.contains("'s'") == true)
            #expect(error?.message.contains("'i'") == true)
        }
    }

    @Test func unknownMethodRepliesUnknownMethod() async throws {
        try await withFixture { fixture, client in
            #expect(await busError { try await fixture.call(client, "Nope") }?.name == .unknownMethod)
        }
    }

    @Test func unknownMethodWithoutInterfaceRepliesUnknownMethod() async throws {
        try await withFixture { fixture, client in
            #expect(await busError { try await fixture.call(client, "Nope", interface: nil) }?.name == .unknownMethod)
        }
    }

    @Test func unknownObjectRepliesUnknownObject() async throws {
        try await withFixture { fixture, client in
            let error = await busError { try await fixture.call(client, "Echo", [.string("x")], path: "/org/example/Test1/nothing") }
            #expect(error?.name == .unknownObject)
        }
    }

    @Test func unknownSiblingOfAnExportedObjectRepliesUnknownObject() async throws {
        try await withFixture { fixture, client in
            let error = await busError { try await fixture.call(client, "Echo", [.string("x")], path: "/org/example/Test1/object2") }
            #expect(error?.name == .unknownObject)
        }
    }

    @Test func unknownInterfaceRepliesUnknownInterface() async throws {
        try await withFixture { fixture, client in
            let error = await busError { try await fixture.call(client, "Echo", [.string("x")], interface: "org.example.Other") }
            #expect(error?.name == .unknownInterface)
        }
    }

    @Test func typedSwiftErrorRepliesItsOwnName() async throws {
        try await withFixture { fixture, client in
            let error = await busError { try await fixture.call(client, "FailTyped") }
            #expect(error?.name.rawValue == "org.example.Error.X")
            #expect(error?.message == "example failure")
        }
    }

    @Test func unmappedSwiftErrorRepliesFailed() async throws {
        try await withFixture { fixture, client in
            #expect(await busError { try await fixture.call(client, "FailUnmapped") }?.name == .failed)
        }
    }

    @Test func oversizedArrayRepliesLimitsExceeded() async throws {
        try await withFixture { fixture, client in
            await fixture.server.setIncomingLimits(IncomingLimits(maximumArrayLength: 4))
            let ok = try await fixture.call(client, "Sum", [.array(.int32, (1...4).map { .int32($0) })])
            #expect(ok == [.int64(10)])
            let error = await busError {
                try await fixture.call(client, "Sum", [.array(.int32, (1...5).map { .int32($0) })])
            }
            #expect(error?.name == .limitsExceeded)
        }
    }

    @Test func replyOverTheOutgoingLimitRepliesLimitsExceeded() async throws {
        try await withFixture { fixture, client in
            await fixture.server.setMaximumOutgoingMessageSize(256)
            let error = await busError {
                try await fixture.call(client, "Echo", [.string(String(repeating: "x", count: 300))])
            }
            #expect(error?.name == .limitsExceeded)
            #expect(error?.message.contains("256") == true)
        }
    }

    @Test func signalOverTheOutgoingLimitThrowsLimitsExceeded() async throws {
        try await withFixture { fixture, _ in
            await fixture.server.setMaximumOutgoingMessageSize(256)
            let thrown = await busError {
                try await fixture.server.emit(
                    path: try ObjectPath("/org/example/Test"), interface: try InterfaceName("org.example.Test"),
                    member: try MemberName("Big"), arguments: [.string(String(repeating: "x", count: 300))])
                return []
            }
            #expect(thrown?.name == .limitsExceeded)
            try await fixture.server.emit(
                path: try ObjectPath("/org/example/Test"), interface: try InterfaceName("org.example.Test"),
                member: try MemberName("Small"), arguments: [.string("x")])
        }
    }

    @Test func unknownPropertyRepliesUnknownProperty() async throws {
        try await withFixture { fixture, client in
            let error = await busError {
                try await fixture.call(client, "Get", [.string(TestNames.interfaceName), .string("Nope")],
                                       interface: "org.freedesktop.DBus.Properties")
            }
            #expect(error?.name == .unknownProperty)
        }
    }

    @Test func propertiesOfAnUnknownInterfaceReplyUnknownInterface() async throws {
        try await withFixture { fixture, client in
            let error = await busError {
                try await fixture.call(client, "GetAll", [.string("org.example.Other")], interface: "org.freedesktop.DBus.Properties")
            }
            #expect(error?.name == .unknownInterface)
        }
    }

    @Test func settingAReadOnlyPropertyRepliesPropertyReadOnly() async throws {
        try await withFixture { fixture, client in
            let error = await busError {
                try await fixture.call(client, "Set", [.string(TestNames.interfaceName), .string("Counter"), .variant(.uint32(9))],
                                       interface: "org.freedesktop.DBus.Properties")
            }
            #expect(error?.name == .propertyReadOnly)
        }
    }

    @Test func settingAPropertyWithTheWrongVariantTypeRepliesInvalidArgs() async throws {
        try await withFixture { fixture, client in
            let error = await busError {
                try await fixture.call(client, "Set", [.string(TestNames.interfaceName), .string("Name"), .variant(.int32(9))],
                                       interface: "org.freedesktop.DBus.Properties")
            }
            #expect(error?.name == .invalidArgs)
            #expect(error?.message.contains("'s'") == true)
            #expect(error?.message.contains("'i'") == true)
        }
    }
}
