/// Graphviz DOT for one window's graph: a node per model, parent→child edges labelled by attachment,
/// and the active path drawn in red and bold.
enum DotGraph {
    /// The DOT text for `snapshot`; `name` becomes the graph's id (e.g. `window_3`).
    static func render(_ snapshot: WindowSnapshot, name: String) -> String {
        let active = snapshot.activePath
        let activeSet = Set(active)
        let activeEdges = Set(zip(active, active.dropFirst()).map { Edge(parent: $0.0, child: $0.1) })
        var lines = [
            "digraph \(quote(name)) {",
            "  rankdir=TB;",
            "  node [shape=box, fontname=\"Helvetica\"];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for model in snapshot.models {
            let label = "\(model.kindLabel)\n\(model.screen ?? model.kind)\n#\(model.id)"
            let highlight = activeSet.contains(model.id)
                ? ", color=\"red\", penwidth=2, style=\"filled\", fillcolor=\"#fff0f0\"" : ""
            lines.append("  m\(model.id) [label=\(quote(label))\(highlight)];")
        }
        let customKinds = Dictionary(
            snapshot.models.compactMap { model in model.customKind.map { (model.id, $0) } }, uniquingKeysWith: { first, _ in first })
        for model in snapshot.models {
            guard let parent = model.parent else { continue }
            var label = model.attachment?.label ?? ""
            // A custom container's children are named by its kind (`split[0]`), as in GetTree.
            if model.attachment?.type == "custom", let kind = customKinds[parent] {
                label = "\(kind)[\(model.attachment?.index.map(String.init) ?? "?")]"
            }
            let highlight = activeEdges.contains(Edge(parent: parent, child: model.id))
                ? ", color=\"red\", penwidth=2" : ""
            lines.append("  m\(parent) -> m\(model.id) [label=\(quote(label))\(highlight)];")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// A parent→child pair.
    private struct Edge: Hashable {
        let parent: UInt64
        let child: UInt64
    }

    /// A DOT string literal; newlines become DOT's `\n` line breaks.
    static func quote(_ text: String) -> String {
        "\"" + text.reduce(into: "") { out, character in out += escapes[character] ?? String(character) } + "\""
    }

    /// What stands for a character inside a DOT string literal: quotes and backslashes escaped, a newline as `\n`,
    /// a carriage return dropped.
    private static let escapes: [Character: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": ""]
}
