import NavigationCore

extension DeepLinkPlan {
    /// The NavigationCore commands that take `window` to this plan's destination, as one batch.
    ///
    /// The session has already chosen or opened the window for ``DeepLinkDestination/window``.
    /// Apply the result with `window.apply(_:)`: it is one atomic change (one version bump, all or
    /// nothing). The batch is, in order:
    ///
    /// 1. **Reset** (when `destination.reset`): `dismissJustFromPresented` from every model sitting in
    ///    a slot on the window's first layer — on the branch shown now and on the branch the
    ///    destination lands on — which closes every presentation above them (sheets, covers, alerts,
    ///    dialogs); then `stackDropToRoot` for every stack on the landing branch that has pushed
    ///    elements. Tabs not selected keep their own state.
    /// 2. **Tab**: `tabsSelectItem` in the first tab container on the branch (skipped when the tab is
    ///    already selected, unless the container's reselect policy is `popToRoot`: then its stack is popped
    ///    to its root, as when the user selects the selected tab).
    /// 3. **Push**: one `stackAppend` of every `push` screen onto the landing stack — the innermost
    ///    stack of the landing layer (after a reset: of the first layer, in the selected tab).
    /// 4. **Present**: one `present` per presentation, each landing on top of the previous one (it runs
    ///    from the active model, whose nearest presenter is the top of the branch): a sheet or a
    ///    full-screen cover of the root screen, or — `withNavigation` — of a stack whose path is the
    ///    root screen followed by the pre-pushed screens.
    ///
    /// Without `reset` the destination lands on the top layer of the active branch (inside an open
    /// sheet, if any). Parameters were substituted by the router; each screen becomes
    /// `ModelSpec.screen(name, params:)`.
    ///
    /// An empty result means the window already is at the destination (e.g. a reset of a window at
    /// its base with nothing to select, push or present); `apply` would reject it as an empty batch,
    /// so skip applying it.
    ///
    /// ```swift
    /// let plan = try router.plan(for: "myapp://tabs/search/item/42?source=mail")
    /// try window.apply(try plan.commands(for: window))
    /// window.routes == plan.destination.routes  // true, from a window with tabs of stacks
    /// ```
    ///
    /// - Parameter window: the window to navigate; it is only read.
    /// - Returns: the batch, possibly empty.
    /// - Throws: ``DeepLinkApplyError`` — the window is closed, has no such tab or no tab container,
    ///   no stack to push onto, or (without reset) shows an alert or dialog; or a hand-built plan
    ///   pre-pushes screens in a presentation without navigation.
    public func commands(for window: NavigationWindow) throws(DeepLinkApplyError) -> [BatchCommand] {
        guard !window.isClosed else { throw .windowClosed }
        for (index, presentation) in destination.present.enumerated()
        where !presentation.withNavigation && !presentation.push.isEmpty {
            throw .pushWithoutNavigation(index: index)
        }
        let landing = try LandingBranch(window: window, tab: destination.tab, reset: destination.reset)
        if let blocker = landing.blocker, !destination.push.isEmpty || !destination.present.isEmpty {
            throw .blockedByDialog(model: blocker.id, kind: blocker.kind.tag)
        }

        var commands: [BatchCommand] = []
        if destination.reset {
            commands += landing.presentedToDismiss.map { BatchCommand(.dismissJustFromPresented, from: $0) }
        }
        // The selected tab again applies the container's reselect policy (popToRoot pops its stack), as a user's
        // reselection does.
        if let tab = destination.tab, let tabs = landing.tabs,
            tabs.selectedTab != tab || tabs.tabState?.policy.reselect == .popToRoot
        {
            commands.append(BatchCommand(.tabsSelectItem(tab), from: tabs.id))
        }
        if destination.reset {
            commands += landing.stacks.filter { (window.model($0)?.path?.count ?? 0) > 1 }.map {
                BatchCommand(.stackDropToRoot, from: $0)
            }
        }
        if let first = destination.push.first {
            guard let stack = landing.stacks.last else { throw .noStack(screen: first.screen) }
            let elements = destination.push.map { StackElementSpec(Self.model(for: $0)) }
            commands.append(BatchCommand(.stackAppend(elements), from: stack))
        }
        for presentation in destination.present {
            commands.append(BatchCommand(.present(Self.presentation(for: presentation))))
        }
        return commands
    }

    /// The scene whose window the destination navigates in (`destination.window.scene`).
    ///
    /// The session picks a window of this scene (or opens one, see ``opensNewWindow``) before calling
    /// ``commands(for:)``.
    public var targetScene: String { destination.window.scene }

    /// Whether the destination always opens a new window of ``targetScene`` (`open: new`), rather
    /// than navigating in an existing one (opening one only if the scene has none).
    public var opensNewWindow: Bool { destination.window.open == .new }

    /// Parameters for a window opened for this deep link (`destination.window.params`, substituted).
    public var newWindowParams: [String: String] { destination.window.params }

    /// A plain screen model for a screen spec.
    static func model(for screen: ScreenSpec) -> ModelSpec {
        .screen(screen.screen, params: screen.params)
    }

    /// The NavigationCore presentation for a deep-link presentation.
    static func presentation(for presentation: DeepLinkPresentation) -> PresentationSpec {
        let model: ModelSpec =
            presentation.withNavigation
            ? .stack(([presentation.root] + presentation.push).map(model(for:)))
            : model(for: presentation.root)
        switch presentation.style {
        case .sheet: return .sheet(model)
        case .cover: return .fullScreenCover(model)
        }
    }
}
