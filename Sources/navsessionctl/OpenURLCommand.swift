import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl open-url URL`: Session1.OpenURL; prints the window that handled it.
struct OpenURLCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-url",
        abstract: "Open a deep link (or announce an external URL) and print the window that handled it."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Argument(help: "A URL, e.g. navsession-demo:detail/42.")
    var url: String

    func run() async throws {
        try await printReply({ try await $0.session.openURL(url) }) { WindowPathOutput.line(for: $0.path, json: json) }
    }
}

extension OpenURLCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .positional { $0.url = $1 })
}
