import Foundation

/// What the last `GetState` of a window showed: model ids, and the stacks, tabs, dialogs and presented
/// models that renderer reports and `...At` calls can name (not those of a branch a switched model keeps).
struct WindowFacts: Sendable {
    var models: [UInt64] = []
    /// Stack ids and their path lengths.
    var stacks: [(id: UInt64, depth: Int)] = []
    /// Tabs model ids and their tab ids.
    var tabs: [(id: UInt64, tabIDs: [String])] = []
    /// Alert and confirmation-dialog model ids and their action ids.
    var dialogs: [(id: UInt64, actions: [String])] = []
    /// Models attached as presentations.
    var presented: [UInt64] = []

    init() {}

    /// Reads a window snapshot (Docs/state-schema.md §1); nil when it is not one.
    init?(stateJSON: String) {
        guard let root = (try? JSONSerialization.jsonObject(with: Data(stateJSON.utf8))) as? [String: Any],
              let models = root["models"] as? [[String: Any]]
        else { return nil }
        // Models of kept (saved) branches stay among `models` (an `...At` call naming one must fail with
        // DetachedModel), but reports meant to apply name only live ones. Pre-order: parents come first.
        var kept: Set<UInt64> = []
        for model in models {
            guard let id = (model["id"] as? NSNumber)?.uint64Value else { continue }
            self.models.append(id)
            let parent = (model["parent"] as? NSNumber)?.uint64Value
            if (model["attachment"] as? [String: Any])?["type"] as? String == "saved" || parent.map(kept.contains) == true {
                kept.insert(id)
                continue
            }
            switch model["kind"] as? String {
            case "stack": stacks.append((id, (model["path"] as? [Any])?.count ?? 1))
            case "tabs": tabs.append((id, (model["tabs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }))
            case "alert", "confirmationDialog":
                let dialog = model["dialog"] as? [String: Any] ?? [:]
                dialogs.append((id, (dialog["actions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }))
            default: break
            }
            if (model["attachment"] as? [String: Any])?["type"] as? String == "presented" { presented.append(id) }
        }
    }
}
