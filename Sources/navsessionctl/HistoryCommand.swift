import ArgumentParser
import FoundationEssentials
import NavSessionClient
import NavigationCore

/// `navsessionctl history WINDOW [--json]`: Window1.GetHistory, one change per line.
struct HistoryCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print a window's recent changes, oldest first (version, time, active screen, cause).",
        discussion: """
            One line per change: `VERSION TIME ACTIVE-SCREEN CAUSE` (TIME in UTC, ISO 8601; "-" when unknown). \
            `--json` prints GetHistory's JSON array. `navsessionctl state WINDOW --at VERSION` prints the state \
            after one of them.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: CompactJSONFlag.help) var json = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func run() async throws {
        try await reportingFailures {
            let text = try await withClient { client in try await windowProxy(window, of: client).historyJSON() }
            guard !json else {
                StandardOutput.line(text)
                return
            }
            let entries = try JSONDecoder().decode([WindowProxy.HistoryEntry].self, from: Data(text.utf8))
            for entry in entries {
                let time = entry.time.map(Self.isoTime) ?? "-"
                let cause = String(decoding: try JSONOutput.encode(entry.cause), as: UTF8.self)
                StandardOutput.line("\(entry.version) \(time) \(entry.activeScreen.isEmpty ? "-" : entry.activeScreen) \(cause)")
            }
        }
    }

    /// `2026-11-27T02:38:21.123Z`.
    static func isoTime(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

extension HistoryCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .positional { $0.window = $1 })
}
