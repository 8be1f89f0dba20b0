import Foundation

// navsession-load: a load test and a fault test of navsessiond through its D-Bus API, with client
// processes, a subscriber, and a replay of every acknowledged command. Docs/load-and-faults.md.

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    progress("\(error)")
    exit(2)
}

if options.mode == .worker {
    let worker = ClientWorker(
        configuration: ClientWorker.Configuration(
            bus: options.bus, client: options.client, ownWindow: options.ownWindow, sharedMain: options.sharedMain,
            sharedWaiting: options.sharedWaiting, commands: options.commands, seed: options.seed,
            output: options.output, untilStop: options.untilStop))
    do {
        try await worker.run()
        exit(0)
    } catch {
        progress("\(error)")
        exit(1)
    }
}

Children.installSignalHandlers()
let workspace: Workspace
do {
    workspace = try Workspace.create()
} catch {
    progress("cannot create a scratch directory: \(error)")
    exit(1)
}
let passed: Bool
do {
    passed = try await Coordinator(options: options, workspace: workspace).run()
} catch {
    progress("failed: \(error)")
    passed = false
}
if options.keepTemp || !passed {
    progress("kept \(workspace.directory)")
} else {
    workspace.remove()
}
exit(passed ? 0 : 1)
