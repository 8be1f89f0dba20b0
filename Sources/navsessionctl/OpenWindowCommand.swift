import ArgumentParser
import DBusKit
import NavSessionClient

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
