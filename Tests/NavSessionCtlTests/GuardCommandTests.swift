import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// `guards` lists the manifest's guards and their providers; `exec protect` / `exec unprotect` (Docs/guards.md).
@Suite(.timeLimit(.minutes(2)))
struct GuardCommandTests {
    /// A raw call on `bus` to the demo daemon.
    static func call(
        _ bus: Bus, path: String, interface: String, _ member: String, _ arguments: [Value]
    ) async throws -> [Value] {
        try await bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(path),
            interface: try InterfaceName(interface), member: try MemberName(member), arguments: arguments,
            timeout: .seconds(10))
    }

    @Test func guardsListsTheDemosGuardWithoutAProvider() async throws {
        try await DaemonFixture.with { daemon in
            let text = try await daemon.ctl(["guards"])
            #expect(text.status == 0, "\(text)")
            #expect(text.lines == ["account -"], "\(text)")
            let json = try await daemon.ctl(["guards", "--json"])
            #expect(json.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"account":""}"#, "\(json)")
        }
    }

    @Test func guardsShowsTheRegisteredProvidersUniqueName() async throws {
        try await DaemonFixture.with { daemon in
            let provider = try await Bus.connect(.address(daemon.address))
            _ = try await Self.call(
                provider, path: "/org/navsession/Session1", interface: "org.navsession.Session1", "RegisterGuard",
                [.string("account")])
            let unique = try #require(await provider.uniqueName)
            let text = try await daemon.ctl(["guards"])
            #expect(text.lines == ["account \(unique.rawValue)"], "\(text)")
            let json = try await daemon.ctl(["guards", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: String])
            #expect(object == ["account": unique.rawValue])
            await provider.close()
        }
    }

    @Test func execProtectSucceedsAndTheMarkGoesWhenNavsessionctlLeaves() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let changes = try await daemon.daemon.bus.signals(
                matching: MatchRule(interface: try InterfaceName("org.navsession.Window1"), member: try MemberName("Changed")))
            let protected = try await daemon.ctl(["exec", window, "protect", "0", "unsaved text"])
            #expect(protected.status == 0, "\(protected)")
            let marked = try #require(UInt64(protected.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(protected)")
            // navsessionctl has left the bus: the daemon drops its mark as a change of its own once it hears so.
            let dropped = await changes.first(within: Liveness.bound(.seconds(30))) { $0.arguments.first?.uint64 == marked + 1 }
            #expect(dropped != nil, "the mark did not go with navsessionctl")
            let state = try await daemon.ctl(["state", "--json", window])
            #expect(state.status == 0 && !state.stdout.contains("\"protection\""), "\(state)")
            // Nothing protects login any more: logging in goes through.
            try await daemon.exec(window, ["switch-model", "main"])
        }
    }

    @Test func execUnprotectOfAnotherClientsMarkIsPrevented() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let owner = try await Bus.connect(.address(daemon.address))
            _ = try await Self.call(
                owner, path: "/org/navsession/Session1/window/\(window)", interface: "org.navsession.Window1",
                "Protect", [.uint64(0), .string("mine"), .string("")])
            let refused = try await daemon.ctl(["exec", window, "unprotect", "0"])
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderr.contains("org.navsession.Error.Prevented"), "\(refused)")
            let state = try await daemon.ctl(["state", "--json", window])
            #expect(state.stdout.contains(#""reason":"mine""#), "\(state)")
            await owner.close()
        }
    }
}
