/// A renderer's own state per window and per model (`setRendererState`).
///
/// Neither starts, finishes, suspends nor resumes a model: one journaled field change, its cost counted in the
/// window's content (so the window's limits and the session's budget apply), and one `rendererState` step.
extension NavigationWindow {
    /// `setRendererState`: `state` replaces the renderer state of the model `reference` names (live or in a kept
    /// branch) or, when `reference` is nil, the window's own; an empty object clears it. Equal: no change.
    func setRendererState(_ reference: ModelReference?, _ state: RendererState) throws(NavigationError) {
        let new = state.isEmpty ? nil : state
        guard let reference else {
            try state.checkSize("the window")
            guard new != rendererState else { return }
            tx.undo.append(.windowRendererState(rendererState))
            tx.costDelta += (new?.cost ?? 0) - (rendererState?.cost ?? 0)
            rendererState = new
            tx.steps.append(.rendererState(model: nil, state: state))
            return
        }
        let id = try resolve(reference)
        let node = try node(id)
        if case .detached = placement(of: node) { throw .detachedModel(id) }
        try state.checkSize("model \(id)")
        guard new != node.rendererState else { return }
        tx.undo.append(.rendererState(node, node.rendererState, cost: node.cost))
        let oldCost = node.cost
        node.rendererState = new
        node.cost = ContentCost.of(node: node)
        // A model created by this change is counted with its final cost when the change commits.
        if node.started { tx.costDelta += node.cost - oldCost }
        tx.markModified(node.id)
        tx.steps.append(.rendererState(model: node.id, state: state))
    }
}
