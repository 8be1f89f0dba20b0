import ArgumentParser
import DBusKit
import ProcessSupport
import Glibc
import NavigationCore

/// The NavSession command-line client; each capability is a subcommand.
///
/// Every subcommand that talks to the daemon is a ``ConnectingCommand`` (`--bus`, `--dest`, `--timeout`);
/// they, and `--json`, may also come before the subcommand (``GlobalArguments``).
/// Failures are printed as one line on stderr (``CommandFailure``) and exit with status 1.
@main
struct NavSessionCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navsessionctl",
        abstract: "Talk to NavSession and its navigation tools.",
        version: NavSessionRelease.version,
        subcommands: [
            StatusCommand.self, ListCommand.self, OpenWindowCommand.self, DismissWindowCommand.self, OpenURLCommand.self,
            ExecCommand.self, StateCommand.self, TreeCommand.self, RoutesCommand.self, WatchCommand.self,
            WaitCommand.self, GraphCommand.self, PlanCommand.self, GuardsCommand.self,
            ClosedCommand.self, ReopenCommand.self, SessionCommand.self, MoveCommand.self, GroupCommand.self, PolicyCommand.self, StatsCommand.self, ManifestCommand.self,
            HistoryCommand.self, TraceCommand.self,  // History and traces
        ]
    )

    /// Rewrites the arguments (``GlobalArguments/rewrite(_:)``), rejects an unknown subcommand with a
    /// suggestion (exit 64), starts the ``EarlyConnection``, parses (``DirectParser``, else
    /// swift-argument-parser), then runs the command in a task that exits the process when it is done.
    ///
    /// Synchronous on purpose: swift-argument-parser's `async` `main` would hop to a worker thread before it
    /// parses and, at the end, back to the main actor, whose queue libdispatch drains on Linux with a thread
    /// it starts for that one job. Parsing here and exiting from the task saves both (≈ 0.4 ms of a 3.5 ms
    /// call; Docs/performance.md, "navsessionctl").
    static func main() {
        // One malloc arena, set before any other thread exists: per-thread arenas cost this few-millisecond
        // process more than the contention they avoid (≈ 0.3 ms of a call; Docs/performance.md, "navsessionctl").
        MallocArenas.limit(to: 1)
        let arguments = GlobalArguments.rewrite(Array(CommandLine.arguments.dropFirst()))
        if let message = GlobalArguments.unknownSubcommand(in: arguments) {
            StandardError.write("Error: \(message)\n")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        if ExecHelp.isRequested(by: arguments) {
            StandardOutput.line(ExecHelp.text(columns: ExecHelp.terminalColumns))
            Glibc.exit(0)
        }
        let parsed: ParsedCommand
        if let direct = DirectParser.command(for: arguments) {
            // One call: made here, before any other thread exists (OneShot.swift).
            if direct.runOnThisThread() { Glibc.exit(0) }
            EarlyConnection.start(for: arguments)
            parsed = .direct(direct)
        } else {
            EarlyConnection.start(for: arguments)
            do {
                parsed = .parsed(try parseAsRoot(arguments))
            } catch {
                exit(withError: error)
            }
        }
        Task.detached {
            do {
                switch parsed {
                case .direct(var command):
                    try await command.runDirectly()
                case .parsed(var command):
                    if var asyncCommand = command as? any AsyncParsableCommand {
                        try await asyncCommand.run()
                    } else {
                        try command.run()
                    }
                }
            } catch {
                exit(withError: error)
            }
            Glibc.exit(0)
        }
        // Wait for the task's exit as `dispatch_main` would: with every signal unblocked, so the main thread
        // can take a SIGINT or SIGTERM that all other threads block (TerminationSignals' handler then runs).
        var everySignal = sigset_t()
        sigemptyset(&everySignal)
        while true { sigsuspend(&everySignal) }
    }
}

/// The parsed command, handed from the main thread to the task that runs it; the main thread never touches it
/// again (it waits in `sigsuspend` for the task to exit the process), so nothing is shared.
private enum ParsedCommand: @unchecked Sendable {
    /// Read by ``DirectParser``: run through ``DirectParsable/runDirectly()``.
    case direct(any DirectParsable)
    /// Parsed by swift-argument-parser.
    case parsed(any ParsableCommand)
}
