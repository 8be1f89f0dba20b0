import NavigationCore

/// The entry screen of a structure: where a new window's parameters go.
extension ModelSpec {
    /// The model reached by descending from this one: a stack's element 0, the selected (or first) tab,
    /// the switched model, the first custom child, until a plain screen. `nil` for alerts and dialogs
    /// and for containers with no children.
    var entryScreen: ModelSpec? {
        switch content {
        case .screen: self
        case .stack(let path, _): path.first?.model.entryScreen
        case .tabs(let tabs, let selected): (tabs.first { $0.id == selected } ?? tabs.first)?.model.entryScreen
        case .switched(let model): model.entryScreen
        case .custom(_, let children, _): children.first?.entryScreen
        case .alert, .confirmationDialog: nil
        }
    }

    /// This structure with `params` merged into the entry screen's parameters (given values win).
    func mergingEntryParams(_ params: [String: String]) -> ModelSpec {
        guard !params.isEmpty else { return self }
        var copy = self
        switch content {
        case .screen:
            copy.params.merge(params) { _, new in new }
        case .stack(var path, let hides):
            guard !path.isEmpty else { return self }
            path[0].model = path[0].model.mergingEntryParams(params)
            copy.content = .stack(path: path, hidesTabBarWhenNotAtRoot: hides)
        case .tabs(var tabs, let selected):
            guard let index = tabs.firstIndex(where: { $0.id == selected }) ?? (tabs.isEmpty ? nil : 0) else {
                return self
            }
            tabs[index].model = tabs[index].model.mergingEntryParams(params)
            copy.content = .tabs(tabs, selected: selected)
        case .switched(let model):
            copy.content = .switched(model.mergingEntryParams(params))
        case .custom(let kind, var children, let selected):
            guard !children.isEmpty else { return self }
            children[0] = children[0].mergingEntryParams(params)
            copy.content = .custom(kind: kind, children: children, selected: selected)
        case .alert, .confirmationDialog:
            return self
        }
        return copy
    }
}
