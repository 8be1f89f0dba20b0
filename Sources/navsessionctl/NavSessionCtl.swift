import ArgumentParser

/// The NavSession command-line client; each capability is a subcommand.
@main
struct NavSessionCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navsessionctl",
        abstract: "Talk to NavSession and its navigation tools.",
        subcommands: [PlanCommand.self]
    )
}
