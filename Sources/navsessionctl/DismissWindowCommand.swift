import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl dismiss-window WINDOW`: Session1.DismissWindow; prints nothing.
struct DismissWindowCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss-window",
        abstract: "Close a window and its whole graph."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func run() async throws {
        try await reportingFailures {
            try await withClient { client in
                try await client.session.dismissWindow(try windowProxy(window, of: client))
            }
        }
    }
}

extension DismissWindowCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .positional { $0.window = $1 })
}
