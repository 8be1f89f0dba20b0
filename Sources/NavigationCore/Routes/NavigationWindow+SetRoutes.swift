/// `setRoutes`: a branch made equal to a route array, keeping the models of the longest unchanged prefix.
extension NavigationWindow {
    /// Makes the branch starting at `stackID` (the root when `nil`) equal to `target`, inside the running
    /// transaction (`Docs/navigation-core.md`, "setRoutes").
    ///
    /// 1. `k` = length of the longest prefix on which the current routes and `target` are equal (style,
    ///    screen, params and `withNavigation`); its models stay, with their ids and no lifecycle event.
    ///    When both arrays equal that prefix nothing is touched (no version bump).
    /// 2. The layer of the first changed route is cut back: walking it from its start, every filled slot
    ///    is cleared (sheets, covers, alerts and dialogs above it go, one `dismiss` step each) and every
    ///    stack keeps only the pushes of the prefix (one `pop` step each).
    /// 3. The rest of `target` is created in order: consecutive pushes go onto the innermost stack of the
    ///    top layer (one `push` step); a sheet or cover is presented by the last model of the top layer
    ///    that may present, as a screen or, with `withNavigation`, a stack of it (one `present` step).
    ///
    /// Cost: O(length of the branch + size of the change).
    func setRoutes(_ target: [Route], stack reference: ModelReference?) throws(NavigationError) {
        let limits = configuration.limits
        // Every route is a distinct model: more routes than the window may hold can never be met.
        guard target.count <= limits.maxModels else {
            throw .limitsExceeded("\(target.count) routes; a window holds at most \(limits.maxModels) models")
        }
        let start: Node
        if let reference {
            start = try attachedStack(try resolve(reference))
        } else {
            guard let root = nodes[rootID] else { throw .unknownModel(rootID) }
            start = root
        }
        let current = branch(from: start)
        // A collapsed split's columns read as one stack but are several: focus a column (`selectChild`) instead.
        if let split = current.collapsedSplit {
            throw .wrongKind(split, expected: "split that is expanded or focused on its first column (setRoutes)")
        }
        let common = min(current.entries.count, target.count)
        // A target route without a transition matches a current one with any (a rule or default may have
        // chosen it), so routes given back without transitions change nothing.
        let kept = (0..<common).first { !Self.matches(current.entries[$0].route, target[$0]) } ?? common
        if kept == current.entries.count && kept == target.count { return }

        // The layer the change starts in, and how many of its pushes stay.
        let layer: Int
        if kept < current.entries.count {
            let first = current.entries[kept]
            layer = first.route.isPresented ? first.layer - 1 : first.layer
        } else {
            layer = current.layerStarts.count - 1
        }
        let keptPushes = current.entries[..<kept].lazy.filter { $0.layer == layer && !$0.route.isPresented }.count
        var top = current.layerStarts[layer]
        cutBack(layer: top, keepingPushes: keptPushes)

        var index = kept
        while index < target.count {
            let route = target[index]
            if route.isPresented {
                top = try presentRoute(route, index: index, on: top)
                index += 1
            } else {
                let end = target[index...].firstIndex(where: \.isPresented) ?? target.count
                try pushRoutes(target[index..<end], on: top)
                index = end
            }
        }
    }

    /// Walks a layer from `start`: clears every filled slot on it and keeps only the first `pushes` pushed
    /// elements of its stacks, outermost first.
    private static func matches(_ current: Route, _ target: Route) -> Bool {
        target.transition == nil ? current.with(transition: nil) == target : current == target
    }

    private func cutBack(layer start: Node, keepingPushes pushes: Int) {
        var budget = pushes
        var current = start
        var remaining = nodes.count
        while remaining > 0 {
            remaining -= 1
            if current.presented != nil { clearSlot(current) }
            if current.kind == .stack, !current.path.isEmpty {
                let pushed = current.path.count - 1
                if pushed > budget {
                    truncatePath(current, keeping: budget + 1)
                    budget = 0
                } else {
                    budget -= pushed
                }
            }
            guard let next = current.lastContainerChild, next != current.id, let child = nodes[next] else { return }
            current = child
        }
    }

    /// The innermost stack and the last model that may present on the layer starting at `start`, and its leaf.
    private func layerEnds(from start: Node) -> (stack: Node?, presenter: Node?, leaf: Node) {
        var stack: Node?
        var presenter: Node?
        var current = start
        var remaining = nodes.count
        while remaining > 0 {
            remaining -= 1
            if current.kind == .stack { stack = current }
            if canPresent(current) { presenter = current }
            guard let next = current.lastContainerChild, next != current.id, let child = nodes[next] else { break }
            current = child
        }
        return (stack, presenter, current)
    }

    /// Pushes consecutive push routes onto the innermost stack of the layer starting at `top`.
    private func pushRoutes(_ routes: ArraySlice<Route>, on top: Node) throws(NavigationError) {
        let ends = layerEnds(from: top)
        guard let stack = ends.stack else { throw .routeFailed(index: routes.startIndex, .noStack(from: ends.leaf.id)) }
        let depth = stack.path.count + routes.count
        guard depth <= configuration.limits.maxStackDepth else {
            throw .routeFailed(
                index: routes.startIndex + configuration.limits.maxStackDepth - stack.path.count,
                .limitsExceeded("a stack would hold \(depth) elements; at most \(configuration.limits.maxStackDepth)"))
        }
        var created: [(Node, String?)] = []
        let elements = routes.map { StackElementSpec($0.model, transition: $0.transition) }
        let transitions: [String?]
        do throws(NavigationError) {
            transitions = try resolvedTransitions(of: elements, on: stack)
        } catch {
            throw .routeFailed(index: routes.startIndex, error)
        }
        for (offset, (index, route)) in zip(routes.indices, routes).enumerated() {
            do throws(NavigationError) {
                if let transition = route.transition, let problem = PresentationSpec.transitionProblem(transition) {
                    throw .invalidSpec(problem)
                }
                created.append((try instantiate(route.model, mayPresent: false), transitions[offset]))
            } catch {
                throw .routeFailed(index: index, error)
            }
        }
        appendElements(stack, created)
    }

    /// Presents a sheet or cover route from the last model of the layer starting at `top` that may present;
    /// returns the presented model, which starts the next layer.
    private func presentRoute(_ route: Route, index: Int, on top: Node) throws(NavigationError) -> Node {
        let ends = layerEnds(from: top)
        guard let presenter = ends.presenter else { throw .routeFailed(index: index, .noPresenter(from: ends.leaf.id)) }
        if let occupant = presenter.presented {
            throw .routeFailed(index: index, .slotOccupied(presenter: presenter.id, occupant: occupant))
        }
        let presentation = route.presentation
        let child: Node
        do throws(NavigationError) {
            child = try instantiatePresentation(presentation, on: presenter)
        } catch {
            throw .routeFailed(index: index, error)
        }
        fillSlot(presenter, with: child, style: presentation.style)
        return child
    }
}
