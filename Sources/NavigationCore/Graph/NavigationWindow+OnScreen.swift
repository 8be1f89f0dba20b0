/// What is on screen and what a focused model is, read straight from the graph's nodes (no ``ModelState`` built):
/// these run after every change (Window1 `VisibleModels`, `Announcement`).
extension NavigationWindow {
    /// The models on screen: the pane stack's top `panes` elements — the stack tagged `paneStack`, else the innermost
    /// stack of the branch under any presentation —, then, for each presentation on the active branch (root first),
    /// the presented model and what it shows under the next presentation (the last model of the active branch before
    /// it: a presented stack's top screen stays on screen under an alert), and the active model. O(depth of the
    /// active branch).
    public func visibleModels(paneStack tag: String?, panes: Int) -> [ModelID] {
        let nodes = self.nodes
        var stack: Node?
        if let tag, let id = tags[tag], let node = nodes[id], node.kind == .stack {
            stack = node
        } else {
            var current = rootID
            var steps = 0
            while let node = nodes[current], steps <= nodes.count {
                steps += 1
                if node.kind == .stack { stack = node }
                guard let next = node.lastContainerChild, next != current else { break }
                current = next
            }
        }
        var visible: [ModelID] = []
        if let path = stack?.path, !path.isEmpty {
            visible = path.suffix(min(path.count, max(1, panes))).map(\.model)
        }
        // The active branch, root first, cut at each presentation: every part after the first shows its presented
        // model and its last model. Most changes have nothing presented on it: then only the stack shows, and the
        // branch is not built (this runs after every change).
        var branch: [ModelID] = []
        var current: ModelID? = activeModelID
        var presents = false
        while let id = current, let node = nodes[id] {
            if case .presented = node.attachment {
                presents = true
                break
            }
            current = node.parent
        }
        current = presents ? activeModelID : nil
        if presents { branch.reserveCapacity(16) }
        while let id = current, let node = nodes[id] {
            branch.append(id)
            current = node.parent
        }
        branch.reverse()
        var shown: [ModelID] = []
        var inPresentation = false
        for (index, id) in branch.enumerated() {
            guard let node = nodes[id] else { continue }
            let presented: Bool = if case .presented = node.attachment { true } else { false }
            if presented {
                shown.append(id)
                inPresentation = true
            }
            let last = index == branch.count - 1
            let beforePresentation = !last && {
                if let next = nodes[branch[index + 1]], case .presented = next.attachment { return true }
                return false
            }()
            if inPresentation, !presented, last || beforePresentation { shown.append(id) }
        }
        for id in shown where !visible.contains(id) { visible.append(id) }
        if !visible.contains(activeModelID) { visible.append(activeModelID) }
        return visible
    }

    /// What an announcement says of a focused model (``focus(_:)``).
    public struct Focus: Sendable {
        /// Its screen.
        public var screen: String
        /// Its own title (not the screen's declared one), or a dialog's headline.
        public var title: String?
        /// Its parameters.
        public var params: [String: String]
        /// `alert`, `dialog`, or `nil` for any other model.
        public var dialogKind: String?
        /// A dialog's message.
        public var message: String?
        /// Whether it is presented (a sheet, a cover, a custom kind).
        public var isPresented: Bool
        /// Its tab's place among its container's tabs (1-based) and how many there are, when it is in a tab.
        public var tab: (index: Int, count: Int)?
    }

    /// The facts about model `id` an announcement needs; `nil` for no such model. O(depth).
    public func focus(_ id: ModelID) -> Focus? {
        let nodes = self.nodes
        guard let node = nodes[id] else { return nil }
        var focus = Focus(
            screen: node.screen, title: node.title, params: node.params, dialogKind: nil, message: nil, isPresented: false)
        switch node.kind {
        case .alert: focus.dialogKind = "alert"
        case .confirmationDialog: focus.dialogKind = "dialog"
        default: break
        }
        if let dialog = node.dialog {
            focus.title = node.title ?? dialog.title
            focus.message = dialog.message
        }
        if case .presented = node.attachment { focus.isPresented = true }
        var child = node
        var steps = 0
        while let parentID = child.parent, let parent = nodes[parentID], steps <= nodes.count {
            steps += 1
            if case .tab(let tabID) = child.attachment, parent.kind == .tabs,
                let index = parent.tabs.firstIndex(where: { $0.id == tabID })
            {
                focus.tab = (index + 1, parent.tabs.count)
                break
            }
            child = parent
        }
        return focus
    }
}
