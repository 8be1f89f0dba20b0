import ArgumentParser
import DBusKit

/// `navsessionctl list`: the open windows with their scene, version, active screen and title.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the open windows.",
        discussion: "Text: one window per line, 'NUMBER SCENE vVERSION ACTIVE_SCREEN \"TITLE\"'."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await connection.reportingFailures {
            let windows = try await connection.withClient { client in
                var rows: [WindowRow] = []
                for path in try await client.listWindows() {
                    // A window may close between ListWindows and GetAll; it is then left out.
                    guard let properties = try? await client.allProperties(path, SessionNames.window) else { continue }
                    rows.append(WindowRow(path: path, properties: properties))
                }
                return rows
            }
            if output.json {
                StandardOutput.line("[" + windows.map(\.json).joined(separator: ",") + "]")
            } else {
                for window in windows { StandardOutput.line(window.text) }
            }
        }
    }
}

/// One line of `list`.
struct WindowRow: Sendable {
    let path: ObjectPath
    let scene: String
    let version: UInt64
    let activeScreen: String
    let title: String

    init(path: ObjectPath, properties: [String: Value]) {
        self.path = path
        scene = properties["Scene"]?.string ?? ""
        version = properties["Version"]?.uint64 ?? 0
        activeScreen = properties["ActiveScreen"]?.string ?? ""
        title = properties["Title"]?.string ?? ""
    }

    /// `1 main v3 login "Log in"`.
    var text: String {
        "\(SessionNames.shortName(of: path.rawValue)) \(scene) v\(version) \(activeScreen) \(ValueText.quote(title))"
    }

    /// `{"window":"1","path":"…","scene":"main","version":3,"activeScreen":"login","title":"Log in"}`.
    var json: String {
        "{\"window\":\(ValueText.quote(SessionNames.shortName(of: path.rawValue))),\"path\":\(ValueText.quote(path.rawValue)),"
            + "\"scene\":\(ValueText.quote(scene)),\"version\":\(version),"
            + "\"activeScreen\":\(ValueText.quote(activeScreen)),\"title\":\(ValueText.quote(title))}"
    }
}
