/// `popTo`: React Navigation's `popTo(name, params, {merge})` on one stack (``NavigationCommand/popTo(screen:params:merge:)``).
extension NavigationWindow {
    /// Back to the nearest element of `origin`'s stack showing `screen`, counting from the top (the top included),
    /// then its params set from `params` (merged when `merge`); when none shows it, a new element showing it takes
    /// the top element's place (the root's when the stack holds only its root). O(stack depth).
    func popTo(_ screen: String, params: [String: String]?, merge: Bool, from origin: Node) throws(NavigationError) {
        guard !screen.isEmpty else { throw .invalidSpec("popTo needs a screen name") }
        try configuration.limits.checkName(screen, "popTo's screen")
        let stack = try requireStack(from: origin)
        if let index = stack.path.indices.last(where: { nodes[stack.path[$0].model]?.screen == screen }),
            let target = nodes[stack.path[index].model]
        {
            if index + 1 < stack.path.count { truncatePath(stack, keeping: index + 1) }
            if let params { try update(target, params: params, title: nil, merge: merge) }
            return
        }
        let spec = ModelSpec.screen(screen, params: params ?? [:])
        guard stack.path.count > 1 else {
            replaceStackRoot(stack, with: try instantiate(spec, mayPresent: false))
            return
        }
        truncatePath(stack, keeping: stack.path.count - 1)
        let element = StackElementSpec(spec)
        let transitions = try resolvedTransitions(of: [element], on: stack)
        appendElements(stack, [(try instantiate(spec, mayPresent: false), transitions.first ?? nil)])
    }
}
