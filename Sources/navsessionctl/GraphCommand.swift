import ArgumentParser
import DBusKit
import FoundationEssentials
import NavSessionClient

/// `navsessionctl graph --dot WINDOW`: the window's graph as Graphviz DOT, built from GetState.
struct GraphCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a window's model graph as Graphviz DOT (pipe into 'dot -Tsvg').",
        discussion: """
            One node per model labelled kind, screen and #id; edges parent→child labelled by attachment \
            (path[i], tab ID, switched, KIND[i], sheet, fullScreenCover, alert, …). The active path from \
            the root to the active model is red and bold. DOT is the only format; --dot may be given for clarity.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Graphviz DOT output (the default and only format).")
    var dot = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func run() async throws {
        try await printReply({ try await windowProxy(window, of: $0).getStateJSON() }) { json in
            let snapshot: WindowSnapshot
            do {
                snapshot = try JSONDecoder().decode(WindowSnapshot.self, from: Data(json.utf8))
            } catch {
                throw SnapshotError(description: "cannot read the window state: \(error)")
            }
            let name = "window_" + SessionNames.shortName(of: window.path.rawValue)
                .map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            return DotGraph.render(snapshot, name: name)
        }
    }
}

/// A GetState reply that is not a snapshot.
struct SnapshotError: Error, CustomStringConvertible {
    let description: String
}

extension GraphCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("dot") { $0.dot = $1 }, .positional { $0.window = $1 })
}
