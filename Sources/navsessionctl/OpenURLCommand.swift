import ArgumentParser
import DBusKit

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
            let reply = try await connection.withClient { try await $0.callSession("OpenURL", [.string(url)]) }
            StandardOutput.line(try WindowPathOutput.line(for: reply, member: "OpenURL", json: output.json))
        }
    }
}
