import ArgumentParser
import DBusKit
import NavSessionClient

/// `navsessionctl open-window SCENE [KEY=VALUE…]`: Session1.OpenWindow; prints the window's path.
struct OpenWindowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-window",
        abstract: "Open a window of a scene and print its object path."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Print the D-Bus call instead of making it.")
    var dryRun = false

    @Argument(help: "A scene the application declares (the demo: main, waiting).")
    var scene: String

    @Argument(help: "Parameters for the scene's root screen.")
    var parameters: [String] = []

    func validate() throws {
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
        try await connection.reportingFailures {
            let params = try parsedParameters().dictionary
            let window = try await connection.withClient { try await $0.session.openWindow(scene: scene, params: params) }
            StandardOutput.line(WindowPathOutput.line(for: window.path, json: output.json))
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
