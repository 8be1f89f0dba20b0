import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl state WINDOW`: Window1.GetState as indented JSON (one line with `--json`).
struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print a window's snapshot (JSON, Docs/state-schema.md)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: CompactJSONOptions

    @Argument(help: "A window number or object path.")
    var window: WindowArgument

    func run() async throws {
        try await connection.printJSON(window: window, compact: output.json) { try await $0.getStateJSON() }
    }
}
