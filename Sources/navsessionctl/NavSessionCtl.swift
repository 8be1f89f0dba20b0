import ArgumentParser
import NavigationCore

/// The NavSession command-line client; each capability is a subcommand.
///
/// Every subcommand that talks to the daemon shares ``ConnectionOptions`` (`--bus`, `--dest`, `--timeout`).
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
}
