import DBusKit

extension CallGenerator {
    /// Updates the session model from a call's outcome.
    func observe(_ call: FuzzCall, _ result: CallResult) {
        let member = call.member.rawValue
        switch result {
        case .reply(let values):
            if let path = values.first?.objectPath, member == "OpenWindow" || member == "OpenURL" { model.opened(path) }
            if member == "ListWindows", let paths = values.first?.arrayElements?.compactMap(\.objectPath) { model.replace(with: paths) }
            if member == "GetState", let text = values.first?.string, text.utf8.count < 1 << 20, let facts = WindowFacts(stateJSON: text) {
                model.record(facts, for: call.path)
            }
            if member == "DismissWindow", let path = call.arguments.first?.objectPath { model.closed(path) }
            if member == "ReportClosed" { model.closed(call.path) }
            if ["Apply", "ExecuteAt", "Activate", "ActivateAction", "Open", "SetCloseOnExit"].contains(member) { refreshNeeded = true }
        case .error(let name, _):
            // A window we thought open is gone (closed by a vanished client's SetCloseOnExit, a batch, …).
            if name == ErrorCatalog.standardPrefix + "UnknownObject" {
                if model.live.contains(call.path) { model.closed(call.path) }
                if let path = call.arguments.first?.objectPath, model.live.contains(path) { refreshNeeded = true }
            }
        case .abandoned, .timedOut, .disconnected, .rejectedLocally:
            refreshNeeded = true
        }
    }
}
