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
        for model in snapshot.models {
            guard let parent = model.parent else { continue }
            let label = model.attachment?.label ?? ""
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
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": continue
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
