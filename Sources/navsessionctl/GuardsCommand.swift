import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore

/// `navsessionctl guards`: the guards the manifest declares and their providers (`Session1.ListGuards`,
/// Docs/guards.md).
struct GuardsCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "guards",
        abstract: "List the manifest's guards and their providers.",
        discussion: "Text: one guard per line, 'GUARD PROVIDER' (the provider's unique bus name, or '-' when none "
            + "is registered), in name order. --json: {\"GUARD\":\"PROVIDER\",…} with \"\" for none."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    func run() async throws {
        try await reportingFailures {
            let guards = try await withClient { client in try await client.session.guards() }
            if json {
                StandardOutput.line(JSONString.object(guards))
            } else {
                for (name, provider) in guards.sorted(by: { $0.key < $1.key }) {
                    StandardOutput.line("\(name) \(provider.isEmpty ? "-" : provider)")
                }
            }
        }
    }
}

extension GuardsCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 })
}
