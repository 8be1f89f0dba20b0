import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl open-url URL`: Session1.OpenURL; prints the window that handled it.
struct OpenURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-url",
        abstract: "Open a deep link (or announce an external URL) and print the window that handled it."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A URL, e.g. navsession-demo:detail/42.")
    var url: String

    func run() async throws {
        try await connection.reportingFailures {
            let window = try await connection.withClient { try await $0.session.openURL(url) }
            StandardOutput.line(WindowPathOutput.line(for: window.path, json: output.json))
        }
    }
}
