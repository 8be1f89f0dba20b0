import DBusKit

/// The coordinator's signals to its client processes, on the same private bus.
///
/// `Ready(i client)` (client → coordinator, once subscribed), `Go(s daemon, i generation)` (coordinator →
/// clients: send to this daemon instance; emitted at the start and after every restart, once the restored
/// state has been read), `Stop()` (coordinator → clients, fault mode: finish the current call and report).
/// Clients address the daemon by its *unique* name, so no call can reach a restarted daemon before its Go.
enum ControlChannel {
    static let path = "/org/navsession/LoadTest"
    static let interface = "org.navsession.LoadTest"

    /// What a client knows of the coordinator's instructions.
    struct State: Sendable {
        var generation = -1
        var daemon = ""
        var stopped = false
    }

    static func rule() throws -> MatchRule {
        MatchRule(path: try ObjectPath(path), interface: try InterfaceName(interface))
    }

    static func emit(_ member: String, _ arguments: [Value], on bus: Bus) async throws {
        try await bus.emit(
            path: try ObjectPath(path), interface: try InterfaceName(interface), member: try MemberName(member),
            arguments: arguments)
    }

    /// Feeds `Go`/`Stop` into `state` until the stream ends.
    static func follow(_ signals: AsyncStream<Signal>, into state: Watched<State>) async {
        for await signal in signals {
            switch signal.member.rawValue {
            case "Go":
                guard signal.arguments.count == 2, let daemon = signal.arguments[0].string,
                      let generation = signal.arguments[1].int32
                else { continue }
                state.update { state in
                    if Int(generation) > state.generation {
                        state.generation = Int(generation)
                        state.daemon = daemon
                    }
                }
            case "Stop":
                state.update { $0.stopped = true }
            default:
                continue
            }
        }
    }
}
