import DBusKit
import NavigationCore
import NavigationSession

/// Issue 34, part H: a window's history, its state at a version, its trace (Session+History.swift).
extension SessionService {
    func historyMethods() -> [MethodRow] {
        typealias A = Interface.Argument
        return [
            MethodRow("GetHistory", [], [A("history_json", .string)], .read { call, state in
                [.string(try state.session.historyJSON(window: try Self.number(of: call.path)))]
            }),
            MethodRow("GetStateAt", [A("version", .uint64)], [A("state_json", .string)], .read { call, state in
                let number = try Self.number(of: call.path)
                let version = Int(clamping: call.arguments[0].uint64 ?? 0)
                let snapshot = try state.session.state(window: number, at: version)
                return [.string(String(decoding: try snapshot.json(), as: UTF8.self))]
            }),
            MethodRow("ExportTrace", [], [A("trace_json", .string)], .read { call, state in
                [.string(try state.session.traceJSON(window: try Self.number(of: call.path)))]
            }),
        ]
    }
}
