import ArgumentParser
import DBusKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavSessionClient
import NavigationCore

/// `navsessionctl closed [--json]`: Session1.ListClosedWindows.
struct ClosedCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "closed",
        abstract: "List the recently closed windows, most recent first.",
        discussion: "Text: one window per line, 'ID SCENE ACTIVE_SCREEN \"TITLE\" closed=ISO8601'; reopen one with "
            + "'navsessionctl reopen ID'. --json prints ListClosedWindows' reply (each entry with its snapshot)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    func run() async throws {
        try await reportingFailures {
            // --json prints the daemon's own text (the one JSON writer), snapshots included, as the help says.
            if json {
                StandardOutput.line(try await withClient { try await $0.session.closedWindowsJSON() })
            } else {
                let closed = try await withClient { try await $0.session.closedWindows() }
                for entry in closed { StandardOutput.line(Self.text(of: entry)) }
            }
        }
    }

    /// `3 main detail "Detail" closed=2026-11-27T02:50:00Z`.
    static func text(of entry: ClosedWindowInfo) -> String {
        let date = Date(timeIntervalSince1970: Double(entry.closedAt) / 1000)
        return "\(entry.id) \(entry.scene) \(entry.activeScreen) \(JSONString.literal(entry.title)) "
            + "closed=\(date.formatted(.iso8601))"
    }
}

extension ClosedCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 })
}

/// `navsessionctl reopen [ID]`: Session1.ReopenWindow; prints the reopened window's path.
struct ReopenCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Reopen a recently closed window with its navigation and print its (new) object path."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Argument(help: "An id from 'navsessionctl closed'; none reopens the most recently closed window.")
    var id: String?

    func run() async throws {
        try await printReply({ try await $0.session.reopenWindow(id) }) { WindowPathOutput.line(for: $0.path, json: json) }
    }
}

extension ReopenCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .optional { $0.id = $1 })
}
