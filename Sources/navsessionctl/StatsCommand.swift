import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore

/// `navsessionctl stats [--openmetrics] [SCREEN…]`: Session1.GetStats — visits and time per screen, guard decisions and
/// funnels, counted from the journal (Docs/analytics.md). Prints the JSON, or the OpenMetrics text a Prometheus
/// textfile collector reads.
struct StatsCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print visits and time per screen, guard decisions and funnels (JSON, or OpenMetrics)."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print the OpenMetrics text exposition instead of JSON.") var openmetrics = false

    @Argument(help: "Only these screens (none: every screen).")
    var screens: [String] = []

    /// The query: the format, and the screens when some are named.
    var query: String {
        var fields = [#""format":"\#(openmetrics ? "openmetrics" : "json")""#]
        if !screens.isEmpty { fields.append(#""screens":["# + screens.map { JSONString.literal($0) }.joined(separator: ",") + "]") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    func run() async throws {
        try await printReply({ client in try await client.session.getStats(query) }, as: { text in
            text.hasSuffix("\n") ? String(text.dropLast()) : text
        })
    }
}

extension StatsCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("openmetrics") { $0.openmetrics = $1 }, .rest { $0.screens = $1 })
}
