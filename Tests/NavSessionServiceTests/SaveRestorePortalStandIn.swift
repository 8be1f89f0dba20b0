import DBusKit
import Foundation
import Synchronization

/// A stand-in for the desktop's `org.freedesktop.portal.SaveRestore` (v1, xdg-desktop-portal's
/// `data/org.freedesktop.portal.SaveRestore.xml`), on the test's private bus: Debian 12's xdg-desktop-portal
/// predates the interface. It owns `org.freedesktop.portal.Desktop`, answers `Register` with the instance id,
/// restore reason and discarded ids it is given, records `SaveHintResponse`, `DiscardedInstanceIds` and the
/// session's `Close`, and emits `SaveHint` and `Quit`.
final class SaveRestorePortalStandIn: Sendable {
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.SaveRestore"

    struct Answer: Sendable {
        var instanceID: String
        var reason: UInt32
        var discard: [String] = []
    }

    let bus: Bus
    let answer: Mutex<Answer>
    /// Every call received, in order (`Register`, `SaveHintResponse`, `DiscardedInstanceIds a,b`, `Close`).
    let calls = Mutex<[String]>([])
    let events: AsyncStream<String>
    private let event: AsyncStream<String>.Continuation

    private init(bus: Bus, answer: Answer) {
        self.bus = bus
        self.answer = Mutex(answer)
        (events, event) = AsyncStream<String>.makeStream()
    }

    static func start(on address: String, answer: Answer) async throws -> SaveRestorePortalStandIn {
        let bus = try await Bus.connect(.address(address))
        let portal = SaveRestorePortalStandIn(bus: bus, answer: answer)
        try await portal.export()
        _ = try await bus.requestName(try BusName("org.freedesktop.portal.Desktop"), options: [.doNotQueue])
        return portal
    }

    private func record(_ call: String) {
        calls.withLock { $0.append(call) }
        event.yield(call)
    }

    /// The session handle of the last registration.
    static let handle = "/org/freedesktop/portal/desktop/session/1_1/navsession"

    private func export() async throws {
        typealias A = Interface.Argument
        let saveRestore = try Interface(
            Self.interface,
            methods: [
                Interface.Method(
                    "Register", inputs: [A("options", .dictionary(key: .string, value: .variant))],
                    outputs: [A("session_handle", .objectPath), A("registration", .dictionary(key: .string, value: .variant))]
                ) { [self] _ in
                    let answer = self.answer.withLock { $0 }
                    self.record("Register")
                    return [
                        .objectPath(try ObjectPath(Self.handle)),
                        .dictionary(key: .string, value: .variant, [
                            DictionaryEntry(.string("instance-id"), .variant(.string(answer.instanceID))),
                            DictionaryEntry(.string("restore-reason"), .variant(.uint32(answer.reason))),
                            DictionaryEntry(.string("discard-instance-ids"), .variant(.array(.string, answer.discard.map(Value.string)))),
                        ]),
                    ]
                },
                Interface.Method("SaveHintResponse", inputs: [A("session_handle", .objectPath)]) { [self] _ in
                    self.record("SaveHintResponse")
                    return []
                },
                Interface.Method(
                    "DiscardedInstanceIds", inputs: [A("session_handle", .objectPath), A("instance_ids", .array(.string))]
                ) { [self] call in
                    let ids = call.arguments.count > 1 ? (call.arguments[1].arrayElements ?? []).compactMap(\.string) : []
                    self.record("DiscardedInstanceIds \(ids.joined(separator: ","))")
                    return []
                },
            ],
            signals: [
                try Interface.Signal("SaveHint", arguments: [A("session_handle", .objectPath)]),
                try Interface.Signal("Quit", arguments: [A("session_handle", .objectPath)]),
            ])
        try await bus.export([saveRestore], at: try ObjectPath(Self.path))
        let session = try Interface(
            "org.freedesktop.portal.Session",
            methods: [
                Interface.Method("Close") { [self] _ in
                    self.record("Close")
                    return []
                }
            ])
        try await bus.export([session], at: try ObjectPath(Self.handle))
    }

    func emit(_ member: String) async throws {
        try await bus.emit(
            path: try ObjectPath(Self.path), interface: try InterfaceName(Self.interface), member: try MemberName(member),
            arguments: [.objectPath(try ObjectPath(Self.handle))])
    }

    func close() async {
        event.finish()
        await bus.close()
    }
}
