/// The split container: a custom container of the built-in kind `split` whose children are its
/// columns — sidebar and detail, or sidebar, content and detail — each a stack or a screen (NavigationSplitView,
/// NavigationViewKit's two-column styles, Decompose panels).
///
/// - The selected child is the **focused column**: the active branch (active model, routes, `goBack`,
///   `canGoBack`) follows it, and `selectChild` focuses another column.
/// - **Push rule**: a `stackAppend` executed from a column that is not the last one does not push onto that
///   column: it replaces the path of the next column (sidebar → content, or detail with two columns; content →
///   detail) with the new models — the models it held finish — and focuses that column, in one change. Within the
///   last column it pushes as usual.
/// - **Column visibility** (``ColumnVisibility``, NavigationSplitViewVisibility): `setColumnVisibility`, a
///   `columnVisibility` step; what the renderer shows, no lifecycle.
/// - **Collapsed form**: a renderer in a narrow window reports `collapsed` (Window1 `ReportCollapsed`); then the
///   columns up to the focused one act as one stack: the routes are the columns' paths one after the other (each
///   later column's root a push), and `goBack` at the focused column's root focuses the column before it;
///   `goBackTo` and `goBackToRoot` read the same one stack.
///   `collapse` / `expand` steps.

/// NavigationSplitViewVisibility: which columns a split shows when it is not collapsed.
public enum ColumnVisibility: String, Hashable, Sendable, CaseIterable, Codable {
    /// The renderer decides (the default).
    case automatic
    /// Every column.
    case all
    /// Content and detail (the sidebar hidden); with two columns, both.
    case doubleColumn
    /// The detail column only.
    case detailOnly
}

/// A split container's state besides its columns and focused column (``ModelState/splitState``).
public struct SplitState: Hashable, Sendable {
    /// The custom kind name that makes a custom container a split.
    public static let kindName = "split"
    /// Which columns it shows when not collapsed.
    public var visibility: ColumnVisibility
    /// Whether the renderer reported it collapsed (a narrow window: the columns act as one stack).
    public var collapsed: Bool

    /// Creates a split state.
    public init(visibility: ColumnVisibility = .automatic, collapsed: Bool = false) {
        self.visibility = visibility
        self.collapsed = collapsed
    }
}

extension NavigationWindow {
    /// A split has two or three columns, each a stack or a screen.
    static func checkSplitColumns(_ kinds: [ModelKind], screen: String) throws(NavigationError) {
        guard kinds.count == 2 || kinds.count == 3 else {
            throw .invalidSpec("split \"\(screen)\" has \(kinds.count) columns; it takes 2 or 3 (sidebar, [content,] detail)")
        }
        for kind in kinds where kind != .stack && kind != .screen {
            throw .invalidSpec("a column of split \"\(screen)\" is a \(kind.tag); columns are stacks or screens")
        }
    }

    /// The split `reference` names, or the nearest split at or above `origin`.
    func split(_ reference: ModelReference?, from origin: Node) throws(NavigationError) -> Node {
        if let reference {
            let node = try attachedNode(try resolve(reference))
            guard node.isSplit else { throw .wrongKind(node.id, expected: "split container") }
            return node
        }
        var current: Node? = origin
        while let node = current {
            if node.isSplit { return node }
            current = parentNode(node)
        }
        throw .noContainer(from: origin.id)
    }

    /// `setColumnVisibility`: journaled, a `columnVisibility` step when it changes.
    func setColumnVisibility(_ visibility: ColumnVisibility, of split: Node) {
        guard visibility != split.columnVisibility else { return }
        tx.undo.append(.columnVisibility(split, split.columnVisibility))
        tx.steps.append(.columnVisibility(container: split.id, visibility: visibility, previous: split.columnVisibility))
        split.columnVisibility = visibility
        tx.markModified(split.id)
    }

    /// The `collapsed` report: journaled, a `collapse` or `expand` step when it changes.
    func setCollapsed(_ collapsed: Bool, of split: Node) {
        guard collapsed != split.collapsed else { return }
        tx.undo.append(.collapsed(split, split.collapsed))
        tx.steps.append(collapsed ? .collapse(container: split.id) : .expand(container: split.id))
        split.collapsed = collapsed
        tx.markModified(split.id)
    }

    /// Where a push from `origin` goes by the split rule: the column after the one holding `origin` (a stack:
    /// its path is replaced), or `nil` when `origin` is not inside a split column that has a next column (the
    /// nearest stack takes the push as usual). The walk stops at the first stack that is not a split's column.
    /// Cost: the walk from `origin` to its stack (usually one lookup); a parent is read for a custom child only.
    func splitPushTarget(from origin: Node) throws(NavigationError) -> (split: Node, index: Int, column: Node)? {
        var current: Node? = origin
        while let node = current {
            if case .custom(let index) = node.attachment, let parent = parentNode(node), parent.isSplit {
                guard index < parent.customChildren.count - 1 else { return nil }
                let next = try self.node(parent.customChildren[index + 1])
                guard next.kind == .stack else {
                    throw .wrongKind(next.id, expected: "stack (column \(index + 1) of split \(parent.id) takes the push)")
                }
                return (parent, index + 1, next)
            }
            if node.kind == .stack { return nil }
            // A presentation is a layer of its own: the split's rule stops there.
            if case .presented = node.attachment { return nil }
            current = parentNode(node)
        }
        return nil
    }

    /// The split push: the next column's path becomes the new models (the ones it held finish); it is focused.
    func pushIntoNextColumn(_ target: (split: Node, index: Int, column: Node), _ created: [(Node, String?)]) {
        replacePath(target.column, with: created.map { ($0.0, $0.1, isNew: true) })
        select(target.index, in: target.split)
    }

    /// `goBackTo`'s entries for what ``collapsedColumnRoutes(_:)`` lists, in the same order: the first column's
    /// pushes, each later column's root (a column entry) and pushes, the focused column's root.
    func collapsedColumnEntries(_ split: Node) -> [RouteEntry] {
        var entries: [RouteEntry] = []
        for index in 0...split.selectedChild {
            guard let column = nodes[split.customChildren[index]] else { continue }
            let models = column.kind == .stack ? column.path.map(\.model) : [column.id]
            for (position, id) in models.enumerated() {
                guard let model = nodes[id] else { continue }
                if position == 0 {
                    if index > 0 { entries.append(RouteEntry(model: model, column: (split, index))) }
                } else if index < split.selectedChild {
                    entries.append(RouteEntry(model: model, push: (column, position)))
                }
            }
        }
        return entries
    }

    /// `goBackToRoot` on a collapsed split: every column after the first popped to its root, the first focused.
    func backToFirstColumn(_ split: Node) {
        for index in 1...split.selectedChild {
            if let column = nodes[split.customChildren[index]], column.kind == .stack { truncatePath(column, keeping: 1) }
        }
        select(0, in: split)
    }

    /// The routes a collapsed split adds before its focused column: the columns before it as one stack (the
    /// first column's pushes, then every later column's whole path), and the focused column's root as a push.
    func collapsedColumnRoutes(_ split: Node) -> [Route] {
        guard split.collapsed, split.selectedChild > 0 else { return [] }
        var routes: [Route] = []
        for index in 0...split.selectedChild {
            guard let column = nodes[split.customChildren[index]] else { continue }
            let models = column.kind == .stack ? column.path.map(\.model) : [column.id]
            let shown = index == 0 ? models.dropFirst() : (index == split.selectedChild ? models.prefix(1) : models[...])
            for id in shown {
                if let model = nodes[id] { routes.append(.push(model.screen, params: model.params)) }
            }
        }
        return routes
    }
}
