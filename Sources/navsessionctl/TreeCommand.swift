import ArgumentParser
import DBusKit
import Foundation
import NavSessionClient

/// `navsessionctl tree WINDOW`: Window1.GetTree, coloured when stdout is a terminal.
struct TreeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Print a window's debug tree, one model per line.",
        discussion: """
            Colours (kinds blue, ids yellow, attachments green, parameters magenta) are used when stdout is a \
            terminal, unless --no-color is given or NO_COLOR is set; --color forces them.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Never use colours.")
    var noColor = false

    @Flag(help: "Use colours even when stdout is not a terminal.")
    var color = false

    @Argument(help: "A window number or object path.")
    var window: WindowArgument

    func run() async throws {
        try await connection.reportingFailures {
            let tree = try await connection.withClient { try await connection.window(window, of: $0).getTree() }
            StandardOutput.line(usesColor ? TreeColorizer.colorize(tree) : tree)
        }
    }

    /// `--no-color` wins, then `--color`, then `NO_COLOR`, then whether stdout is a terminal.
    private var usesColor: Bool {
        if noColor { return false }
        if color { return true }
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(STDOUT_FILENO) == 1
    }
}
