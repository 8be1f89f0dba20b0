/// The §9 debug tree.
extension NavigationWindow {
    /// A text tree of the window, one model per line, indented two spaces per depth in `children` order.
    ///
    /// Each line is `<kind> <screen> #<id> (<attachment>)`, then `tag:"<tag>"` for a tagged model, then the params as a one-line JSON object
    /// with sorted keys when there are any (so a value with `, ` or `=` stays unambiguous), and `*` after the
    /// attachment of the selected tab's child:
    /// ```
    /// tabs main #1 (root)
    ///   stack home #2 (tab home*)
    ///     screen list #3 (path[0])
    ///     screen detail #4 (path[1]) {"id":"42"}
    ///   screen settings #5 (tab settings)
    /// ```
    /// Custom kinds print as `custom:<name>`, and their children as `<name>[i]` (`*` on the selected one). A switched container's kept branches follow its children, their
    /// roots labelled `(saved <screen>)`. O(number of models), iterative.
    public func debugTree() -> String {
        guard let root = nodes[rootID] else { return "" }
        var lines: [String] = []
        var pending: [(Node, Int)] = [(root, 0)]
        while let (node, depth) = pending.popLast() {
            lines.append(String(repeating: "  ", count: depth) + debugLine(node))
            for entry in node.saved.reversed() {
                if let child = nodes[entry.model] { pending.append((child, depth + 1)) }
            }
            for childID in node.children.reversed() {
                if let child = nodes[childID] { pending.append((child, depth + 1)) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func debugLine(_ node: Node) -> String {
        let kind: String
        if case .custom(let name) = node.kind { kind = "custom:\(name)" } else { kind = node.kind.tag }
        var label = node.attachment.debugLabel
        if case .tab(let id) = node.attachment, parentNode(node)?.selectedTab == id { label += "*" }
        if case .custom(let index) = node.attachment, let parent = parentNode(node) {
            // A custom container's child is named by the container's own kind (`split[0]`, `segments[1]`), so the
            // tree says what the container is, not only that it is custom.
            if case .custom(let name) = parent.kind { label = "\(name)[\(index)]" }
            if parent.selectedChild == index { label += "*" }
        }
        var line = "\(kind) \(node.screen) \(node.id) (\(label))"
        if node.isSplit {
            if node.columnVisibility != .automatic { line += " columns:" + node.columnVisibility.rawValue }
            if node.collapsed { line += " collapsed" }
        }
        if let tag = node.tag { line += " tag:" + JSONString.literal(tag) }
        if !node.params.isEmpty {
            line += " {" + node.params.sorted { $0.key < $1.key }
                .map { JSONString.literal($0.key) + ":" + JSONString.literal($0.value) }.joined(separator: ",") + "}"
        }
        if let mark = node.protection {
            line += " protected:" + JSONString.literal(mark.reason) + " by " + JSONString.literal(mark.owner)
            if let dialog = mark.dialog { line += " dialog:" + JSONString.literal(dialog) }
        }
        return line
    }
}
