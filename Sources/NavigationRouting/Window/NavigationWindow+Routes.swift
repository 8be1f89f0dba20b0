import NavigationCore

extension NavigationWindow {
    /// The window's route view: its active branch flattened FlowStacks-style.
    ///
    /// From the root, the walk follows the selected tab, the switched model, the last stack element
    /// and the last child of a custom container. Along the way:
    ///
    /// - every stack element after element 0 becomes ``Route/push(_:)`` with its screen name (the
    ///   stack's root element is the base the pushes sit on, not a route);
    /// - at the end of a layer, the first filled presentation slot met on that layer's branch (the
    ///   one ``NavigationWindow/activeModelID`` follows) becomes a route and the walk continues in the
    ///   presented model: a sheet becomes ``Route/sheet(_:withNavigation:)``, a full-screen cover
    ///   ``Route/cover(_:withNavigation:)``. `withNavigation` is `true` exactly when the presented
    ///   model is a stack; the route's screen is then the stack's element 0 and its later elements
    ///   follow as pushes. Any other presented model gives its own screen name;
    /// - a **custom presentation kind** (e.g. `popover`) maps to a sheet: it is a modal layer the
    ///   step planner must dismiss and present like one;
    /// - an **alert or confirmation dialog** is not a route: the view stops there (dialogs are
    ///   leaves, so nothing is lost above them).
    ///
    /// ```swift
    /// let window = try NavigationWindow(root: .stacked(.screen("home")))
    /// try window.execute(.stackAppend(.screen("detail")))
    /// try window.execute(.present(.sheet(.stacked(.screen("compose")))))
    /// window.routes  // [.push("detail"), .sheet("compose", withNavigation: true)]
    /// ```
    ///
    /// Cost: O(length of the active branch), the routes themselves included; models off the branch
    /// (other tabs, elements below the top of a stack) are never visited.
    public var routes: [Route] {
        var routes: [Route] = []
        var current = rootID
        var slot: ModelID?
        var remaining = modelCount
        while remaining > 0, let model = model(current) {
            remaining -= 1
            if slot == nil { slot = model.presented }
            if case .stack(let path, _) = model.content {
                routes += path.dropFirst().compactMap { self.model($0.model).map { .push($0.screen) } }
            }
            if let next = ActiveBranch.child(of: model) {
                current = next
                continue
            }
            guard let presentedID = slot, let presented = self.model(presentedID),
                let route = presentationRoute(for: presented)
            else { break }
            routes.append(route)
            slot = nil
            current = presentedID
        }
        return routes
    }

    /// The route of a model sitting in a slot, or `nil` for an alert or dialog.
    private func presentationRoute(for presented: ModelState) -> Route? {
        guard let style = ActiveBranch.style(of: presented), !ActiveBranch.isDialog(style) else { return nil }
        var screen = presented.screen
        var withNavigation = false
        if let path = presented.path {
            withNavigation = true
            if let first = path.first, let root = model(first.model) { screen = root.screen }
        }
        if case .fullScreenCover = style {
            return .cover(screen, withNavigation: withNavigation)
        }
        return .sheet(screen, withNavigation: withNavigation)
    }
}
