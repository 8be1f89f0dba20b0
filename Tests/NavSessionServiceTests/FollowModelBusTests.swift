import DBusKit
import DBusTestSupport
import Foundation
import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// Per-model observation through the bus (`FollowModel` → unicast `ModelChanged`), on the demo.
@Suite(.serialized) struct FollowModelBusTests {
    /// A second raw connection that follows `model` of `window` itself, and every `ModelChanged` it receives.
    static func follower(_ fixture: DaemonFixture, _ window: String, _ model: UInt64) async throws
        -> (Bus, AsyncStream<Signal>)
    {
        let bus = try await fixture.connect()
        let received = try await bus.signals(matching: MatchRule(
            interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("ModelChanged")))
        _ = try await bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
            interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("FollowModel"),
            arguments: [.uint64(model)], timeout: .seconds(10))
        return (bus, received)
    }

    @Test func aFollowerOfOneModelReceivesNothingWhileAThousandChangesOfOtherModelsHappen() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let home = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let (bus, received) = try await Self.follower(fixture, window, home)
            // 1 000 changes of the home tab's stack and of the models pushed on it, none of the home screen.
            for _ in 0..<500 {
                _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
                _ = try await fixture.window(window, "StackDropLast", [.uint32(1)])
            }
            let last = try await fixture.gdbus(
                window, "Apply",
                [#"[{"command":"setParams","model":\#(home),"title":"Home"}]"#, #"{"transaction": "{\"source\":\"test\"}"}"#])
            #expect(last.status == 0, "\(last)")
            let version = try await fixture.version(window)
            // The first ModelChanged this connection received is the home screen's own: none came before it.
            let signal = try await first(received, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments.first?.uint64 == home)
            #expect(signal.arguments[1].uint64 == version)
            let json = try #require(signal.arguments[2].string)
            #expect(json.contains(#""title":"Home""#) && json.contains(#""transaction":{"source":"test"}"#), "\(json)")
            #expect(json.contains(#""steps":[{"kind":"update","model":\#(home)}]"#), "\(json)")
            await bus.close()
        }
    }

    /// The signal is encoded once and copied per follower: each follower still gets its own, addressed to it.
    @Test func everyFollowerOfOneModelGetsItsOwnSignal() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let home = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            var followers: [(Bus, AsyncStream<Signal>)] = []
            for _ in 0..<5 { followers.append(try await Self.follower(fixture, window, home)) }
            _ = try await fixture.window(
                window, "Apply", [.string(#"[{"command":"setParams","model":\#(home),"title":"Start"}]"#), .noParams])
            let version = try await fixture.version(window)
            for (bus, received) in followers {
                let signal = try await first(received, timeout: .seconds(30)) { _ in true }
                #expect(signal.arguments.first?.uint64 == home && signal.arguments[1].uint64 == version)
                #expect(signal.arguments[2].string?.contains(#""title":"Start""#) == true)
                await bus.close()
            }
        }
    }

    @Test func aFollowedModelsEndIsItsLastChange() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let client = try await fixture.connectClient()
            let changes = try await client.follow(ModelID(rawValue: Int(detail)), in: try client.window(window))
            _ = try await fixture.window(window, "SetParams", [.uint64(detail), .params(["id": "2"]), .boolean(false)])
            _ = try await fixture.window(window, "StackDropLast", [.uint32(1)])
            var seen: [ModelChange] = []
            for await change in changes { seen.append(change) }
            #expect(seen.map(\.finished) == [false, true], "\(seen)")
            #expect(seen.first?.params == ["id": "2"])
            await client.close()
        }
    }

    @Test func followModelOfAnUnknownModelIsUnknownModel() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.gdbus(window, "FollowModel", ["999"])
            #expect(result.stderr.contains("org.navsession.Error.UnknownModel"), "\(result)")
        }
    }

    @Test func aClientFollowsAtMost64Models() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let models = (0..<65).map { _ in #"{"screen":"detail","params":{"id":"1"}}"# }.joined(separator: ",")
            let reply = try await fixture.window(
                window, "Apply", [.string(#"[{"command":"stackAppend","models":[\#(models)]}]"#), .params([:])])
            let elements = try #require(reply[1].arrayElements)
            let started = elements.compactMap(\.uint64)
            #expect(started.count == 65)
            let bus = try await fixture.connect()
            func follow(_ model: UInt64) async throws -> [Value] {
                try await bus.call(
                    destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
                    interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("FollowModel"),
                    arguments: [.uint64(model)], timeout: .seconds(10))
            }
            for model in started.prefix(64) { _ = try await follow(model) }
            let error = await fixture.error { try await follow(started[64]) }
            #expect(error?.name == .limitsExceeded, "\(String(describing: error))")
            await bus.close()
        }
    }
}
