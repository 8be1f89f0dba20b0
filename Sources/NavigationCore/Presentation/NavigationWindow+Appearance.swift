/// Appearance in place (`setAppearance`) and the live tab-bar rule (`setTabBarRule`).
///
/// Neither starts, finishes, suspends nor resumes a model: each is one journaled field change and one step, so the
/// transaction path (marks, entry conditions, guard providers, limits) has nothing to check beyond it.
extension NavigationWindow {
    /// The appearance that applies to `node`: its override over its screen's declared appearance. O(1).
    func resolvedAppearance(of node: Node) -> Appearance {
        (node.appearance ?? Appearance()).resolved(over: configuration.appearances[node.screen])
    }

    /// `setAppearance`: the model's override becomes `appearance` laid over it (`merge`) or exactly `appearance`
    /// (an empty one: no override); an `appearance` step with the resolved appearance when the override changed.
    func setAppearance(
        _ reference: ModelReference?, _ appearance: Appearance, merge: Bool, from origin: Node
    ) throws(NavigationError) {
        let node = try reference.map { reference throws(NavigationError) in try attachedNode(try resolve(reference)) } ?? origin
        let new = merge ? appearance.merged(over: node.appearance ?? Appearance()) : appearance
        let override = new.isEmpty ? nil : new
        guard override != node.appearance else { return }
        tx.undo.append(.appearance(node, node.appearance))
        node.appearance = override
        tx.markModified(node.id)
        // An override equal to what the screen declares changes the state (it is kept) but nothing a renderer shows:
        // the step still goes out so a renderer following steps never misses a change of the state it mirrors.
        tx.steps.append(.appearance(model: node.id, appearance: resolvedAppearance(of: node)))
    }

    /// `setTabBarRule`: the stack's rule (walk-up from `origin` when `reference` is nil); a `tabBarRule` step when it
    /// changed.
    func setTabBarRule(
        _ reference: ModelReference?, hidden: Bool, animated: Bool, from origin: Node
    ) throws(NavigationError) {
        let stack: Node
        if let reference {
            stack = try attachedStack(try resolve(reference))
        } else {
            stack = try requireStack(from: origin)
        }
        guard stack.hidesTabBarWhenNotAtRoot != hidden || stack.hidesTabBarAnimated != animated else { return }
        tx.undo.append(.tabBarRule(stack, hidden: stack.hidesTabBarWhenNotAtRoot, animated: stack.hidesTabBarAnimated))
        stack.hidesTabBarWhenNotAtRoot = hidden
        stack.hidesTabBarAnimated = animated
        tx.markModified(stack.id)
        tx.steps.append(.tabBarRule(stack: stack.id, hiddenWhenNotRoot: hidden, animated: animated))
    }
}
