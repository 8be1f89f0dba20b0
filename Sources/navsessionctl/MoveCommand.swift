import ArgumentParser
import DBusKit
import NavSessionClient
import NavigationCore

/// `navsessionctl move WINDOW MODEL [TO]`: Session1.MoveModel — a tab, a pushed screen with those above it, or a
/// presented model, to another window or (TO omitted or `new`) a new one; prints the target window's path and version.
struct MoveCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a model with everything under it to another window, or to a new one.",
        discussion: """
            MODEL is a model id (0: the window's active model). TO is a window number or path, or 'new' (the \
            default) for a new window. --placement names where it goes: '{"tabs":3}', '{"stack":12,"position":1}', \
            '{"presentOn":7}', '{"scene":"main"}' (Docs/desktop.md, "Move and merge"). Prints the target window's \
            path and its version ({"window":…,"path":…,"version":…} with --json).
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: OutputFlag.help) var json = false

    @Option(help: "Where it goes, as JSON (default: where its form goes).")
    var placement = ""

    @Argument(help: "The source window: a number or object path.")
    var window: WindowArgument

    @Argument(help: "The model id (0: the active model).")
    var model: UInt64

    @Argument(help: "The target window, or 'new' (default).")
    var to: String = "new"

    func validate() throws {
        try validateConnection()
        _ = try target()
    }

    /// The target window, `nil` for a new one.
    private func target() throws -> WindowArgument? {
        guard to != "new" else { return nil }
        guard let argument = WindowArgument(argument: to) else {
            throw ArgumentParser.ValidationError("TO must be a window number, an object path or 'new', not '\(to)'")
        }
        return argument
    }

    func run() async throws {
        let target = try target()
        try await printReply({ client in
            try await client.session.moveModel(
                model == 0 ? nil : ModelID(rawValue: Int(clamping: model)), of: try windowProxy(window, of: client),
                to: try target.map { try windowProxy($0, of: client) }, placementJSON: placement)
        }) { reply in
            let path = reply.window.path
            guard json else { return "\(path) \(reply.version)" }
            return String(WindowPathOutput.line(for: path, json: true).dropLast()) + ",\"version\":\(reply.version)}"
        }
    }
}

extension MoveCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .option("placement", default: "") { $0.placement = $1 },
        .positional { $0.window = $1 }, .positional { $0.model = $1 }, .optional(default: "new") { $0.to = $1 })
}
