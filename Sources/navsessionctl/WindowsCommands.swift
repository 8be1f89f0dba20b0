import ArgumentParser
import DBusKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavSessionClient
import NavigationCore

// The session's windows: `list`, `open-window`, `open-url`, `dismiss-window`, `closed` and `reopen` (Session1's
// window verbs), each a command with its direct reading.

/// `navsessionctl list`: the open windows with their scene, version, active screen and title.
struct ListCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the open windows.",
        discussion: "Text: one window per line, 'NUMBER SCENE vVERSION ACTIVE_SCREEN \"TITLE\"', then "
            + "' pending=JSON' when a navigation waits for an entry condition (cancel it with exec WINDOW cancel-pending)."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    func run() async throws {
        try await reportingFailures {
            let windows = try await withClient { client in
                var rows: [WindowRow] = []
                for window in try await client.session.listWindows() {
                    // A window may close between ListWindows and GetAll; it is then left out.
                    guard let properties = try? await window.properties() else { continue }
                    rows.append(WindowRow(path: window.path, properties: properties))
                }
                return rows
            }
            if json {
                StandardOutput.line("[" + windows.map(\.json).joined(separator: ",") + "]")
            } else {
                for window in windows { StandardOutput.line(window.text) }
            }
        }
    }
}

/// One line of `list`.
struct WindowRow: Sendable {
    let path: String
    let scene: String
    let version: UInt64
    let activeScreen: String
    let title: String
    /// Window1 `PendingNavigation`, `""` when none.
    let pendingNavigation: String

    init(path: String, properties: WindowProperties) {
        self.path = path
        scene = properties.scene
        version = properties.version
        activeScreen = properties.activeScreen
        title = properties.title
        pendingNavigation = properties.pendingNavigation
    }

    /// `1 main v3 login "Log in"`.
    var text: String {
        "\(SessionNames.shortName(of: path)) \(scene) v\(version) \(activeScreen) \(JSONString.literal(title))"
            + (pendingNavigation.isEmpty ? "" : " pending=\(pendingNavigation)")
    }

    /// `{"window":"1","path":"…","scene":"main","version":3,"activeScreen":"login","title":"Log in"}`.
    var json: String {
        "{\"window\":\(JSONString.literal(SessionNames.shortName(of: path))),\"path\":\(JSONString.literal(path)),"
            + "\"scene\":\(JSONString.literal(scene)),\"version\":\(version),"
            + "\"activeScreen\":\(JSONString.literal(activeScreen)),\"title\":\(JSONString.literal(title))"
            + (pendingNavigation.isEmpty ? "" : ",\"pendingNavigation\":\(JSONString.literal(pendingNavigation))") + "}"
    }
}

extension ListCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 })
}

/// `navsessionctl open-window SCENE [KEY=VALUE…]`: Session1.OpenWindow; prints the window's path.
struct OpenWindowCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-window",
        abstract: "Open a window of a scene and print its object path."
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Flag(help: "Print the D-Bus call instead of making it.")
    var dryRun = false

    @Argument(help: "A scene the application declares (the demo: main, waiting).", completion: LiveCompletion.scenes)
    var scene: String

    @Argument(help: "Parameters for the scene's root screen.")
    var parameters: [String] = []

    func validate() throws {
        try validateConnection()
        _ = try parsedParameters()
    }

    func run() async throws {
        let arguments: [Value] = [.string(scene), try parsedParameters().value]
        if dryRun {
            let signature = arguments.map(\.type.description).joined()
            StandardOutput.line(
                (["\(SessionNames.sessionPath) \(SessionNames.session).OpenWindow(\(signature))"]
                    + arguments.map(ValueText.render)).joined(separator: " "))
            return
        }
        let params = try parsedParameters().dictionary
        try await printReply({ try await $0.session.openWindow(scene: scene, params: params) }) {
            WindowPathOutput.line(for: $0.path, json: json)
        }
    }

    private func parsedParameters() throws -> KeyValueParameters {
        do {
            return try KeyValueParameters(parsing: parameters)
        } catch {
            throw ArgumentParser.ValidationError(error.description)
        }
    }
}

extension OpenWindowCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .flag("dry-run") { $0.dryRun = $1 },
        .positional { $0.scene = $1 }, .rest { $0.parameters = $1 })
}

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

/// `navsessionctl dismiss-window WINDOW`: Session1.DismissWindow; prints nothing.
struct DismissWindowCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss-window",
        abstract: "Close a window and its whole graph."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: WindowArgument.help) var window: WindowArgument

    func run() async throws {
        try await reportingFailures {
            try await withClient { client in
                try await client.session.dismissWindow(try windowProxy(window, of: client))
            }
        }
    }
}

extension DismissWindowCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .positional { $0.window = $1 })
}

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
