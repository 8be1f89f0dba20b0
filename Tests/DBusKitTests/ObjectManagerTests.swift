import DBusKit
import DBusTestSupport
import Testing

@Suite struct ObjectManagerTests {
    func windowPath(_ n: Int) throws -> ObjectPath { try ObjectPath("\(TestNames.rootPath)/window/\(n)") }

    @Test func getManagedObjectsListsObjectsBelowTheManager() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let reply = try await fixture.call(client, "GetManagedObjects", path: TestNames.rootPath, interface: "org.freedesktop.DBus.ObjectManager")
        let entries = try #require(reply.first?.dictionaryEntries)
        #expect(entries.map(\.key) == [.objectPath(try ObjectPath(TestNames.objectPath))])
        let interfaces = try #require(entries.first?.value.dictionaryEntries)
        #expect(interfaces.map(\.key) == [.string(TestNames.interfaceName)])
        await client.close()
        await fixture.stop()
    }

    @Test func exportingBelowTheManagerEmitsInterfacesAdded() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let added = try await client.signals(matching: MatchRule(interface: .objectManager, member: try MemberName("InterfacesAdded")))
        try await fixture.server.export([try TestNames.interface(state: fixture.state)], at: try windowPath(1))
        let signal = try #require(await first(added))
        #expect(signal.path.rawValue == TestNames.rootPath)
        #expect(signal.arguments.first == .objectPath(try windowPath(1)))
        #expect(signal.arguments.last?.dictionaryEntries?.first?.key == .string(TestNames.interfaceName))
        await client.close()
        await fixture.stop()
    }

    @Test func unexportingEmitsInterfacesRemovedAndTheObjectIsGone() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        try await fixture.server.export([try TestNames.interface(state: fixture.state)], at: try windowPath(2))
        #expect(try await fixture.call(client, "Echo", [.string("w2")], path: try windowPath(2).rawValue) == [.string("w2")])
        let removed = try await client.signals(matching: MatchRule(interface: .objectManager, member: try MemberName("InterfacesRemoved")))
        try await fixture.server.unexport(at: try windowPath(2))
        let signal = try #require(await first(removed))
        #expect(signal.arguments == [.objectPath(try windowPath(2)), .strings([TestNames.interfaceName])])
        let error = await busError { try await fixture.call(client, "Echo", [.string("x")], path: try windowPath(2).rawValue) }
        #expect(error?.name == .unknownObject)
        #expect(try await fixture.call(client, "Echo", [.string("ok")]) == [.string("ok")])
        await client.close()
        await fixture.stop()
    }

    @Test func exportingTwiceAtOnePathThrowsPathInUse() async throws {
        let fixture = try await TestFixture.start()
        await #expect(throws: ConnectionError(.pathInUse, "an object is already exported at \(TestNames.objectPath)")) {
            try await fixture.server.export([try TestNames.interface(state: fixture.state)], at: try ObjectPath(TestNames.objectPath))
        }
        await fixture.stop()
    }

    @Test func introspectionListsInterfacesStandardInterfacesAndChildren() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        try await fixture.server.export([try TestNames.interface(state: fixture.state)], at: try windowPath(3))
        let xml = try #require(try await fixture.call(client, "Introspect", path: TestNames.rootPath, interface: "org.freedesktop.DBus.Introspectable").first?.string)
        #expect(xml.hasPrefix("<!DOCTYPE node PUBLIC"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.ObjectManager\">"))
        #expect(xml.contains("<node name=\"object\"/>"))
        #expect(xml.contains("<node name=\"window\"/>"))
        let objectXML = try #require(try await fixture.call(client, "Introspect", interface: "org.freedesktop.DBus.Introspectable").first?.string)
        #expect(objectXML.contains("<interface name=\"org.freedesktop.DBus.Properties\">"))
        #expect(objectXML.contains("<method name=\"Echo\">"))
        #expect(objectXML.contains("<arg name=\"text\" type=\"s\" direction=\"in\"/>"))
        #expect(objectXML.contains("<property name=\"Name\" type=\"s\" access=\"readwrite\">"))
        #expect(objectXML.contains("value=\"const\""))
        #expect(objectXML.contains("a &lt;test&gt; &amp; &quot;quote&quot;"))
        let intermediate = try #require(try await fixture.call(client, "Introspect", path: "/org/example", interface: nil).first?.string)
        #expect(intermediate.contains("<node name=\"Test1\"/>"))
        await client.close()
        await fixture.stop()
    }
}
