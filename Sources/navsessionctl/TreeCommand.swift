import ArgumentParser
import DBusKit
import FoundationEssentials
import NavSessionClient

/// `navsessionctl tree WINDOW`: Window1.GetTree, coloured when stdout is a terminal.
struct TreeCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Print a window's debug tree, one model per line.",
        discussion: """
            Colours (kinds blue, ids yellow, attachments green, parameters magenta) are used when stdout is a \
            terminal, unless --no-color is given, NO_COLOR is set (any value) or TERM is dumb; --color forces them.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Never use colours.")
    var noColor = false

    @Flag(help: "Use colours even when stdout is not a terminal.")
    var color = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func run() async throws {
        try await printReply({ try await windowProxy(window, of: $0).getTree() }) { tree in
            usesColor ? TreeColorizer.colorize(tree) : tree
        }
    }

    /// ``TerminalColor/enabled(forced:disabled:environment:stdoutIsTerminal:)`` for this command's flags.
    private var usesColor: Bool { TerminalColor.enabled(forced: color, disabled: noColor) }
}

extension TreeCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("no-color") { $0.noColor = $1 }, .flag("color") { $0.color = $1 },
        .positional { $0.window = $1 })
}
