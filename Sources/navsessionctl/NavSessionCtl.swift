import ArgumentParser
import Glibc
import NavigationCore

/// The NavSession command-line client; each capability is a subcommand.
///
/// Every subcommand that talks to the daemon shares ``ConnectionOptions`` (`--bus`, `--dest`, `--timeout`);
/// they, and `--json`, may also come before the subcommand (``GlobalArguments``).
/// Failures are printed as one line on stderr (``CommandFailure``) and exit with status 1.
@main
struct NavSessionCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navsessionctl",
        abstract: "Talk to NavSession and its navigation tools.",
        version: NavSessionRelease.version,
        subcommands: [
            ListCommand.self, OpenWindowCommand.self, DismissWindowCommand.self, OpenURLCommand.self,
            ExecCommand.self, StateCommand.self, TreeCommand.self, RoutesCommand.self, WatchCommand.self,
            WaitCommand.self, GraphCommand.self, PlanCommand.self,
        ]
    )

    /// Rewrites the arguments (``GlobalArguments/rewrite(_:)``), rejects an unknown subcommand with a
    /// suggestion (exit 64), then runs the command.
    static func main() async {
        let arguments = GlobalArguments.rewrite(Array(CommandLine.arguments.dropFirst()))
        if let message = GlobalArguments.unknownSubcommand(in: arguments) {
            StandardError.write("Error: \(message)\n")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        if ExecHelp.isRequested(by: arguments) {
            StandardOutput.line(ExecHelp.text(columns: ExecHelp.terminalColumns))
            Glibc.exit(0)
        }
        await main(arguments)
    }
}
