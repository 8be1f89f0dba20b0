/// The brief's nearest-presenter rule, answered from the presenter index instead of a subtree scan.
extension NavigationWindow {
    /// `down(M)`: the first presenter (pre-order) in M's subtree with a filled slot, recursively on its
    /// presented model; otherwise the last presenter of the subtree. O(depth × index fan-out).
    func down(_ start: Node) -> Node? {
        var current = start
        while true {
            guard let holder = firstFilledPresenter(in: current) else { return lastPresenter(in: current) }
            guard let presentedID = holder.presented, let presented = nodes[presentedID] else { return holder }
            current = presented
        }
    }

    /// `up(M)`: M if it may present, else the nearest ancestor that may; then to the top of its chain.
    func up(_ start: Node) -> Node? {
        var current: Node? = start
        while let node = current, !canPresent(node) { current = parentNode(node) }
        guard var top = current else { return nil }
        while let presentedID = top.presented, let presented = nodes[presentedID] { top = presented }
        return top
    }

    /// `nearest(M) = down(M) ?? up(M)`.
    func nearestPresenter(_ start: Node) -> Node? { down(start) ?? up(start) }

    /// The first model in pre-order of `root`'s subtree that may present and has a filled slot.
    private func firstFilledPresenter(in root: Node) -> Node? {
        var current = root
        while true {
            if canPresent(current), current.presented != nil { return current }
            guard let next = extremeChild(of: current, among: current.filledSlotChildren, first: true) else {
                return nil
            }
            current = next
        }
    }

    /// The last model in pre-order of `root`'s subtree that may present.
    private func lastPresenter(in root: Node) -> Node? {
        var current = root
        while true {
            if let next = extremeChild(of: current, among: current.presenterChildren, first: false) {
                current = next
                continue
            }
            return canPresent(current) ? current : nil
        }
    }

    /// The first or last of `candidates` in `parent`'s children order (presented child first).
    private func extremeChild(of parent: Node, among candidates: Set<ModelID>, first: Bool) -> Node? {
        var best: Node?
        for id in candidates {
            guard let child = nodes[id] else { continue }
            guard let current = best else {
                best = child
                continue
            }
            if first ? child.position < current.position : child.position > current.position { best = child }
        }
        return best
    }
}
