import DBusKit
import DBusTestSupport
import Glibc
import Testing

/// DBusKit writes the messages it marshals to the socket itself, at the end of the bus thread's turn; messages
/// libdbus sends (those carrying a descriptor, calls, libdbus's own answers) must still keep their place.
@Suite struct DirectWriteTests {
    @Test func aSignalLibdbusSendsKeepsItsPlaceBetweenDirectlyWrittenOnes() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let member = try MemberName("Note")
        let notes = try await client.signals(matching: MatchRule(interface: try TestNames.interface(), member: member))
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let path = try ObjectPath(TestNames.objectPath)
        let interface = try TestNames.interface()
        // In one turn of the bus thread, so the first is still waiting to be written when libdbus sends the
        // second: a descriptor only libdbus can attach.
        try await emitInOneTurn(
            [[.string("first")], [.unixFD(ends[0])], [.string("third")]], path: path, interface: interface,
            member: member, on: fixture.server)
        let received = await collect(notes, 3)
        #expect(received.count == 3)
        if received.count == 3 {
            #expect(received[0].arguments == [.string("first")])
            #expect(received[1].arguments.first?.type == .unixFD)
            #expect(received[2].arguments == [.string("third")])
        }
        await client.close()
        await fixture.stop()
    }

    @Test func aBurstLargerThanOneWriteArrivesWholeAndInOrder() async throws {
        let fixture = try await TestFixture.start()
        let client = try await fixture.privateBus.connect()
        let member = try MemberName("Note")
        let notes = try await client.signals(matching: MatchRule(interface: try TestNames.interface(), member: member))
        let path = try ObjectPath(TestNames.objectPath)
        let interface = try TestNames.interface()
        let padding = String(repeating: "x", count: 8 * 1024)
        let count = 400
        try await emitInOneTurn(
            (0..<count).map { [.uint32(UInt32($0)), .string(padding)] }, path: path, interface: interface, member: member,
            on: fixture.server)
        let received = await collect(notes, count)
        #expect(received.map { $0.arguments.first } == (0..<count).map { .uint32(UInt32($0)) })
        await client.close()
        await fixture.stop()
    }
}

/// Emits each of `signals` in one job of the bus's thread (its isolation), so none is written before the last.
private func emitInOneTurn(
    _ signals: [[Value]], path: ObjectPath, interface: InterfaceName, member: MemberName, on bus: isolated Bus
) throws {
    for arguments in signals { try bus.emit(path: path, interface: interface, member: member, arguments: arguments) }
}

/// The first `count` elements of `stream`, or fewer if they do not come within a generous liveness bound.
private func collect(_ stream: AsyncStream<Signal>, _ count: Int) async -> [Signal] {
    let reader = Task {
        var got: [Signal] = []
        for await signal in stream {
            got.append(signal)
            if got.count == count { break }
        }
        return got
    }
    if !(await completes(within: .seconds(60)) { _ = await reader.value }) { reader.cancel() }
    return await reader.value
}
