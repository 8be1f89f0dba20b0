import NavigationCore
import ArgumentParser
import FoundationEssentials
import NavigationRouting

/// `navsessionctl plan`: prints the one-step states between two route views.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan the one-step states from one route view to another.",
        discussion: """
            ROUTES is a JSON array such as '[{"style":"push","screen":"a"},\
            {"style":"sheet","screen":"b","withNavigation":true}]'. Prints the states S0…Sn as a \
            JSON array of route arrays.
            """
    )

    @Option(name: .long, help: "Start routes (JSON array).")
    var from: String

    @Option(name: .long, help: "Target routes (JSON array).")
    var to: String

    @Flag(name: .long, help: "The renderer can dismiss several presentations in one update.")
    var multiDismiss = false

    @Flag(name: .long, help: "The renderer can push several screens in one update.")
    var pushesInOne = false

    @Flag(name: .long, help: "Indent the output.")
    var pretty = false

    func run() throws {
        let start = try Self.routes(from, option: "--from")
        let target = try Self.routes(to, option: "--to")
        var capabilities: StepPlanner.Capabilities = []
        if multiDismiss { capabilities.insert(.multiDismiss) }
        if pushesInOne { capabilities.insert(.pushesInOne) }
        print(Route.json(states: StepPlanner.steps(from: start, to: target, capabilities: capabilities), pretty: pretty))
    }

    /// Reads one ROUTES option; on failure prints one line to stderr and exits with status 1.
    private static func routes(_ json: String, option: String) throws -> [Route] {
        do {
            return try Route.list(fromJSON: json)
        } catch {
            StandardError.write("navsessionctl plan: \(option): \(error)\n")
            throw ExitCode.failure
        }
    }
}

extension PlanCommand: DirectParsable {
    static let direct = DirectSyntax<Self>(
        .required("from") { $0.from = $1 }, .required("to") { $0.to = $1 },
        .flag("multi-dismiss") { $0.multiDismiss = $1 }, .flag("pushes-in-one") { $0.pushesInOne = $1 },
        .flag("pretty") { $0.pretty = $1 })
}
