import NavigationCore

/// What a new manifest does to a window's state (Session1 `CheckManifest`, `ReloadManifest`, a start with another
/// manifest; Docs/manifest.md, "Changing the manifest"): screens renamed by its `renamed` map, removed screens replaced
/// by its `fallback` or taken away (a pushed screen with those above it, a presentation with its own), params it no
/// longer declares dropped; a window whose root cannot stay starts again at its scene's root; a window whose scene is
/// gone closes. A pure function of the state and the two manifests: the same plan at a check, a reload and a start.
struct ManifestMigration {
    /// What happens to one window.
    enum Action: String {
        /// Nothing changes.
        case keep
        /// Models are renamed, replaced, taken away or lose params.
        case migrate
        /// The root cannot stay: the window starts again at its scene's root.
        case reset
        /// The scene is gone: the window closes.
        case close
    }

    struct Renaming: Hashable {
        var model: ModelID
        var from: String
        var to: String
    }

    struct Removal: Hashable {
        var model: ModelID
        var screen: String
        var reason: String
        var marked: Bool
    }

    struct DroppedParams: Hashable {
        var model: ModelID
        var screen: String
        var params: [String]
    }

    /// One window's plan: its action, what changes, and the migrated state (for ``Action/migrate``).
    struct Plan {
        var action: Action = .keep
        var renamed: [Renaming] = []
        var replaced: [Renaming] = []
        var removed: [Removal] = []
        var params: [DroppedParams] = []
        var state: WindowSnapshot?
        var reason: String?
    }

    let manifest: Manifest

    private func declared(_ screen: String) -> Bool { manifest.freeFormScreens || manifest.screen(screen) != nil }

    /// The plan for a window of `scene` in `snapshot`.
    func plan(_ snapshot: WindowSnapshot, scene: String) -> Plan {
        var plan = Plan()
        guard manifest.scene(scene) != nil else {
            plan.action = .close
            plan.reason = "the manifest no longer declares scene '\(scene)'"
            return plan
        }
        var models = snapshot.models
        var index: [ModelID: Int] = [:]
        for (position, model) in models.enumerated() { index[model.id] = position }
        var gone: Set<ModelID> = []
        var cuts: [ModelID] = []
        // Pre-order: a parent is decided before its children (those under a removed model go with it).
        for position in models.indices {
            let model = models[position]
            if let parent = model.parent, gone.contains(parent) {
                gone.insert(model.id)
                continue
            }
            let renamed = manifest.renamed[model.screen], fallback = manifest.fallback[model.screen]
            guard model.kind == .screen || renamed != nil else { continue }
            var name = model.screen
            // A renamed or removed name is never a declared one (the manifest says so), free-form screens or not.
            if renamed != nil || fallback != nil || !declared(name) {
                if let renamed {
                    plan.renamed.append(Renaming(model: model.id, from: name, to: renamed))
                    name = renamed
                } else if let fallback {
                    plan.replaced.append(Renaming(model: model.id, from: name, to: fallback))
                    name = fallback
                } else if model.kind == .screen {
                    plan.removed.append(Removal(
                        model: model.id, screen: name, reason: "the manifest no longer declares it", marked: model.protection != nil))
                    gone.insert(model.id)
                    cuts.append(model.id)
                    continue
                }
                models[position].screen = name
            }
            guard !manifest.freeFormScreens, let declaration = manifest.screen(name) else { continue }
            let allowed = Set(declaration.required + declaration.optional)
            let dropped = model.params.keys.filter { !allowed.contains($0) }.sorted()
            if !dropped.isEmpty {
                plan.params.append(DroppedParams(model: model.id, screen: name, params: dropped))
                for key in dropped { models[position].params[key] = nil }
            }
            if let missing = declaration.required.first(where: { models[position].params[$0] == nil }) {
                plan.removed.append(Removal(
                    model: model.id, screen: name, reason: "its params no longer validate: '\(missing)' is required",
                    marked: model.protection != nil))
                gone.insert(model.id)
                cuts.append(model.id)
            }
        }
        guard !plan.renamed.isEmpty || !plan.replaced.isEmpty || !plan.removed.isEmpty || !plan.params.isEmpty else {
            return plan
        }
        plan.action = .migrate
        // Take the removed models away where they hang.
        for id in cuts {
            guard let at = index[id], let parentID = models[at].parent, let parentAt = index[parentID] else {
                plan.action = .reset
                plan.reason = "model \(id), the window's root, is removed"
                return plan
            }
            switch models[at].attachment {
            case .path(let position) where position > 0:
                if case .stack(let path, let hides) = models[parentAt].content, position < path.count {
                    for element in path[position...] { gone.insert(element.model) }
                    models[parentAt].content = .stack(path: Array(path[..<position]), hidesTabBarWhenNotAtRoot: hides)
                }
            case .presented:
                models[parentAt].presented = nil
            case .tab(let tab):
                guard case .tabs(var tabs, let selected) = models[parentAt].content, tabs.count > 1,
                    let position = tabs.firstIndex(where: { $0.id == tab })
                else {
                    plan.action = .reset
                    plan.reason = "model \(id) is the last tab of \(parentID)"
                    return plan
                }
                tabs.remove(at: position)
                models[parentAt].content = .tabs(tabs, selected: selected == tab ? tabs[min(position, tabs.count - 1)].id : selected)
                models[parentAt].tabState?.history.removeAll { $0 == tab }
            case .saved:
                models[parentAt].saved.removeAll { $0.model == id }
            default:
                plan.action = .reset
                plan.reason = "model \(id) (\(models[at].attachment.debugLabel) of \(parentID)) cannot be taken away"
                return plan
            }
        }
        // Everything under a removed model goes too (a stack suffix's upper screens and their subtrees).
        var kept: [ModelState] = []
        for model in models {
            if gone.contains(model.id) || model.parent.map(gone.contains) == true {
                gone.insert(model.id)
                continue
            }
            kept.append(model)
        }
        for position in kept.indices {
            if let opener = kept[position].resultTo, gone.contains(opener) { kept[position].resultTo = nil }
        }
        // The forward list names screens as they were: it goes (a window restored from the state validates the rest).
        plan.state = snapshot.replacing(
            models: kept, scheduled: snapshot.scheduled.filter { !gone.contains($0.model) }, forward: [])
        return plan
    }
}

extension ManifestMigration.Plan {
    /// `{"window":1,"scene":"main","action":"migrate","renamed":[{"model":7,"from":"detail","to":"item"}],
    /// "replaced":[…],"removed":[{"model":9,"screen":"legacy","reason":"…","marked":false}],
    /// "params":[{"model":7,"screen":"item","dropped":["x"]}],"reason":"…"}` (empty lists and no reason left out).
    func json(window: UInt32, scene: String) -> String {
        var fields = [#""window":\#(window)"#, #""scene":"# + JSONString.literal(scene), #""action":"\#(action.rawValue)""#]
        func list<T>(_ name: String, _ items: [T], _ item: (T) -> String) {
            guard !items.isEmpty else { return }
            fields.append("\"\(name)\":[" + items.map(item).joined(separator: ",") + "]")
        }
        let renaming: (ManifestMigration.Renaming) -> String = {
            #"{"model":\#($0.model.rawValue),"from":"# + JSONString.literal($0.from) + #","to":"# + JSONString.literal($0.to) + "}"
        }
        list("renamed", renamed, renaming)
        list("replaced", replaced, renaming)
        list("removed", removed) {
            #"{"model":\#($0.model.rawValue),"screen":"# + JSONString.literal($0.screen) + #","reason":"#
                + JSONString.literal($0.reason) + #","marked":\#($0.marked)}"#
        }
        list("params", params) {
            #"{"model":\#($0.model.rawValue),"screen":"# + JSONString.literal($0.screen) + #","dropped":["#
                + $0.params.map { JSONString.literal($0) }.joined(separator: ",") + "]}"
        }
        if let reason { fields.append(#""reason":"# + JSONString.literal(reason)) }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
