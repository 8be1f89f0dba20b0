/// The route view: a window's active branch flattened FlowStacks-style (`Docs/routing.md`, §5.1).
extension NavigationWindow {
    /// The window's route view: its active branch flattened FlowStacks-style.
    ///
    /// From the root, the walk follows the selected tab, the switched model, the last stack element
    /// and the selected child of a custom container. Along the way:
    ///
    /// - every stack element after element 0 becomes a ``Route/push(_:params:)`` with its screen name and
    ///   params (the stack's root element is the base the pushes sit on, not a route);
    /// - at the end of a layer, the first filled presentation slot met on that layer's branch (the
    ///   one ``NavigationWindow/activeModelID`` follows) becomes a route and the walk continues in the
    ///   presented model: a sheet becomes ``Route/sheet(_:params:withNavigation:)``, a full-screen cover
    ///   ``Route/cover(_:params:withNavigation:)``. `withNavigation` is `true` exactly when the presented
    ///   model is a stack; the route's screen and params are then those of the stack's element 0, and its
    ///   later elements follow as pushes. Any other presented model gives its own screen name and params;
    /// - a **custom presentation kind** (e.g. `popover`, `browser`) keeps its own name as the route's style
    ///   (``Route/Style/custom(_:)``); a renderer that does not know it treats it as a modal layer like a sheet;
    /// - an **alert or confirmation dialog** is not a route: the view stops there (dialogs are
    ///   leaves, so nothing is lost above them).
    ///
    /// ```swift
    /// let window = try NavigationWindow(root: .stacked(.screen("home")))
    /// try window.execute(.stackAppend(.screen("detail", params: ["id": "1"])))
    /// try window.execute(.present(.sheet(.stacked(.screen("compose")))))
    /// window.routes  // [.push("detail", params: ["id": "1"]), .sheet("compose", withNavigation: true)]
    /// ```
    ///
    /// Cost: O(length of the active branch), the routes themselves included; models off the branch
    /// (other tabs, elements below the top of a stack) are never visited.
    public var routes: [Route] { routes(startingAt: rootID) }

    /// The route view of the branch starting at `id` (a stack, usually): its pushes, then the presentations
    /// from that layer on, read as ``routes`` reads the whole window's. Empty for an unknown id.
    ///
    /// This is the array ``NavigationCommand/setRoutes(_:stack:)`` with `stack: id` makes equal to its routes.
    public func routes(startingAt id: ModelID) -> [Route] {
        guard let start = nodes[id] else { return [] }
        return branch(from: start).entries.map(\.route)
    }

    /// One route of a branch and the layer it belongs to.
    struct BranchEntry {
        var route: Route
        /// The layer the route belongs to: a presentation opens layer `layer`, a push sits on it.
        var layer: Int
    }

    /// A branch walked from a start model: its routes and where each layer starts.
    struct Branch {
        var entries: [BranchEntry] = []
        /// `layerStarts[0]` is the start model; `layerStarts[j]` the presented model opening layer `j`.
        var layerStarts: [Node] = []
        /// A collapsed split whose columns the branch reads as one stack (its routes are not one stack's pushes).
        var collapsedSplit: ModelID?
    }

    /// Walks the branch from `start`: O(length of the branch).
    func branch(from start: Node) -> Branch {
        var branch = Branch()
        branch.layerStarts.append(start)
        var current = start
        var slot: ModelID?
        var remaining = nodes.count
        while remaining > 0 {
            remaining -= 1
            if slot == nil { slot = current.presented }
            if current.kind == .stack {
                for element in current.path.dropFirst() {
                    guard let pushed = nodes[element.model] else { continue }
                    branch.entries.append(BranchEntry(
                        route: Route(style: .push, screen: pushed.screen, params: pushed.params, transition: element.transition),
                        layer: branch.layerStarts.count - 1))
                }
            }
            if current.collapsed, current.isSplit {
                let routes = collapsedColumnRoutes(current)
                if !routes.isEmpty { branch.collapsedSplit = current.id }
                for route in routes {
                    branch.entries.append(BranchEntry(route: route, layer: branch.layerStarts.count - 1))
                }
            }
            if let next = current.lastContainerChild, next != current.id, let child = nodes[next] {
                current = child
                continue
            }
            guard let presentedID = slot, let presented = nodes[presentedID],
                let route = presentationRoute(for: presented)
            else { break }
            branch.layerStarts.append(presented)
            branch.entries.append(BranchEntry(route: route, layer: branch.layerStarts.count - 1))
            slot = nil
            current = presented
        }
        return branch
    }

    /// The route of a model sitting in a slot, or `nil` for an alert or dialog.
    private func presentationRoute(for presented: Node) -> Route? {
        guard case .presented(let style) = presented.attachment else { return nil }
        var screen = presented.screen
        var params = presented.params
        var withNavigation = false
        if presented.kind == .stack {
            withNavigation = true
            if let first = presented.path.first, let root = nodes[first.model] {
                screen = root.screen
                params = root.params
            }
        }
        let routeStyle: Route.Style
        switch style {
        case .alert, .confirmationDialog: return nil
        case .fullScreenCover: routeStyle = .cover
        case .sheet: routeStyle = .sheet
        case .custom(let name): routeStyle = .custom(name)
        }
        return Route(
            style: routeStyle, screen: screen, params: params, withNavigation: withNavigation, transition: presented.transition)
    }
}
