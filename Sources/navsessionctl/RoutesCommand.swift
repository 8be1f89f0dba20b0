import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl routes WINDOW`: Window1.GetRoutes as indented JSON (one line with `--json`).
struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print the route view of a window's active branch (JSON)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: CompactJSONFlag.help)
    var json = false

    @Argument(help: "A window number or object path.")
    var window: WindowArgument

    func run() async throws {
        try await connection.printJSON(window: window, compact: json) { try await $0.getRoutes() }
    }
}
