import DBusKit
import NavigationCore
import NavigationSession

/// Window1's history methods: a window's history, its state at a version, its trace (Session+History.swift).
extension SessionService {
    func historyMethods() -> [MethodRow] {
        return [
            MethodRow("GetHistory", .read { call, state in
                [.string(try state.session.historyJSON(window: try Self.number(of: call.path)))]
            }),
            // The kept history is taken in call order; redoing it (up to two spans of changes, Session.historySpan) and encoding run
            // off the bus thread, so no other client's call waits for it.
            MethodRow("GetStateAt", .deferred { call, state in
                let number = try Self.number(of: call.path)
                let version = Int(clamping: call.arguments[0].uint64 ?? 0)
                let taken = try state.session.stateReplay(window: number, at: version)
                return {
                    let snapshot = switch taken {
                    case .current(let snapshot): snapshot
                    case .replay(let replay): try replay.state(at: version)
                    }
                    return [.string(String(decoding: try snapshot.json(), as: UTF8.self))]
                }
            }),
            MethodRow("ExportTrace", .deferred { call, state in
                let replay = try state.session.historyReplay(window: try Self.number(of: call.path))
                return { [.string(try replay.traceJSON())] }
            }),
        ]
    }
}
