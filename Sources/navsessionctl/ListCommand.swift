import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore

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
