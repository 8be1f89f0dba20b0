import ArgumentParser
import DBusKit
import FoundationEssentials
import Glibc
import NavSessionClient
import NavigationCore
import ProcessSupport

/// `navsessionctl state WINDOW`: Window1.GetState as indented JSON (one line with `--json`);
/// `state WINDOW --set FILE` loads a saved state into the window (Window1.SetState), a fixture's start.
struct StateCommand: AsyncParsableCommand, ConnectingCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print a window's snapshot (JSON, Docs/state-schema.md), or load one with --set.",
        discussion: """
            `navsessionctl state 1 > saved.json` saves a window's state; `navsessionctl state 2 --set saved.json` \
            loads it into window 2 as one change (its models get fresh ids) and prints the new version.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: CompactJSONFlag.help) var json = false

    @Argument(help: WindowArgument.help) var window: WindowArgument

    @Option(name: .customLong("set"), help: "Load FILE ('-' for standard input), a window state as `state` prints it.")
    var stateFile: String?

    @Option(name: .customLong("at"), help: "Print the state right after VERSION (Window1.GetStateAt; see `history`).")
    var atVersion: Int?

    func runOnThisThread() -> Bool {
        guard stateFile == nil, atVersion == nil else { return false }
        return printOneShotJSON(window: window, member: "GetState", compact: json)
    }

    func run() async throws {
        if let atVersion {
            guard stateFile == nil else { throw ValidationError("--at and --set cannot be combined") }
            guard atVersion >= 0 else { throw ValidationError("--at takes a version (0 or more)") }
            try await printJSON(window: window, compact: json) { try await $0.stateJSON(at: atVersion) }
            return
        }
        guard let stateFile else {
            try await printJSON(window: window, compact: json) { try await $0.getStateJSON() }
            return
        }
        let data: Data
        do {
            data = Data(stateFile == "-" ? try StandardStream.readAll(from: STDIN_FILENO) : try StandardStream.readFile(stateFile))
        } catch {
            throw ValidationError("cannot read \(stateFile): \(error)")
        }
        // Decoding validates the state exactly as a restore does (WindowSnapshot's own rules).
        let snapshot: NavigationCore.WindowSnapshot
        do {
            snapshot = try JSONDecoder().decode(NavigationCore.WindowSnapshot.self, from: data)
        } catch {
            throw ValidationError("\(stateFile) is not a window state: \(error)")
        }
        try await printReply({ try await windowProxy(window, of: $0).setState(snapshot) }) { version in
            json ? "{\"version\":\(version)}" : String(version)
        }
    }
}

extension StateCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .connection, .flag("json") { $0.json = $1 }, .positional { $0.window = $1 },
        .option("set") { $0.stateFile = $1 }, .option("at") { $0.atVersion = $1 })
}
