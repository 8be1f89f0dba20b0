import ArgumentParser
import DBusKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NavSessionClient

/// `navsessionctl session save NAME [WINDOW…] | open NAME | list | delete NAME`: the named sessions (Session1
/// `SaveSession`, `OpenSession`, `ListSessions`, `DeleteSession`; Docs/desktop.md).
struct SessionCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Save windows under a name, open them again, list or delete named sessions.",
        discussion: """
            save NAME [WINDOW...]: the windows' navigation (every open window when none is given) saved under NAME. \
            open NAME: every window saved under NAME opened again; prints their object paths. list: one session per \
            line, 'NAME WINDOWS saved=ISO8601', each window as SCENE:ACTIVE_SCREEN (--json: ListSessions' reply). \
            delete NAME.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Argument(help: "save, open, list or delete.")
    var action: String

    @Argument(help: "The session's name (save, open, delete).")
    var name: String?

    @Argument(help: "The windows to save (save; none: every open window).")
    var windows: [WindowArgument] = []

    func validate() throws {
        try validateConnection()
        switch action {
        case "list":
            guard name == nil else { throw ValidationError("'session list' takes no name") }
        case "save":
            guard name != nil else { throw ValidationError("'session save' needs a NAME") }
        case "open", "delete":
            guard name != nil, windows.isEmpty else { throw ValidationError("'session \(action)' takes one NAME") }
        default:
            throw ValidationError("'\(action)' is not a session action: save, open, list or delete")
        }
    }

    func run() async throws {
        let name = self.name ?? ""
        try await reportingFailures {
            try await withClient { client in
                switch action {
                case "save":
                    try await client.session.saveSession(name, windows: try windows.map { try windowProxy($0, of: client) })
                case "open":
                    for window in try await client.session.openSession(name) {
                        StandardOutput.line(WindowPathOutput.line(for: window.path, json: json))
                    }
                case "delete":
                    try await client.session.deleteSession(name)
                default:
                    let text = try await client.session.sessionsJSON()
                    if json {
                        StandardOutput.line(text)
                    } else {
                        for line in Self.lines(ofJSON: text) { StandardOutput.line(line) }
                    }
                }
            }
        }
    }

    /// One entry of `ListSessions`' reply.
    private struct Listed: Decodable {
        struct Window: Decodable {
            var scene: String
            var activeScreen: String
        }

        var name: String
        var savedAt: Int64
        var windows: [Window]
    }

    /// `work main:detail,main:settings saved=2026-12-05T08:00:00Z` per session.
    static func lines(ofJSON text: String) -> [String] {
        guard let sessions = try? JSONDecoder().decode([Listed].self, from: Data(text.utf8)) else { return [text] }
        return sessions.map { session in
            let windows = session.windows.map { "\($0.scene):\($0.activeScreen)" }.joined(separator: ",")
            let date = Date(timeIntervalSince1970: Double(session.savedAt) / 1000)
            return "\(session.name) \(windows) saved=\(date.formatted(.iso8601))"
        }
    }
}

extension SessionCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .positional { $0.action = $1 }, .optional { $0.name = $1 },
        .rest { $0.windows = $1 })
}
