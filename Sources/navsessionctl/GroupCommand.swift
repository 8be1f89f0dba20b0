import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl group NAME [WINDOW…]`: Session1.GroupWindows — the windows become the group NAME (none: the group
/// is dissolved); they close, reopen and open together. Prints nothing.
struct GroupCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Make windows a group that closes, reopens and opens together (none: dissolve it)."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The group's name.")
    var name: String

    @Argument(help: "The group's windows (numbers or object paths); none dissolves the group.")
    var windows: [WindowArgument] = []

    func run() async throws {
        try await reportingFailures {
            try await withClient { client in
                try await client.session.groupWindows(name, try windows.map { try windowProxy($0, of: client) })
            }
        }
    }
}

extension GroupCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .positional { $0.name = $1 }, .rest { $0.windows = $1 })
}
