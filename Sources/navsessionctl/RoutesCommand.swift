import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl routes WINDOW`: Window1.GetRoutes as indented JSON (one line with `--json`).
struct RoutesCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print the route view of a window's active branch (JSON)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: CompactJSONFlag.help) var json = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func run() async throws {
        try await printJSON(window: window, compact: json) { try await $0.getRoutes() }
    }

    func runOnThisThread() -> Bool {
        printOneShotJSON(window: window, member: "GetRoutes", compact: json)
    }
}

extension RoutesCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .positional { $0.window = $1 })
}
