import Foundation

// session-benchmark: D-Bus cost of navsessiond against a minimal C libdbus echo service,
// measured in one run on one private bus. Method and results: Docs/bus-benchmark.md.

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    progress("\(error)")
    exit(2)
}

Children.installSignalHandlers()

let workspace: Workspace
do {
    workspace = try Workspace.create()
} catch {
    progress("cannot create a scratch directory: \(error)")
    exit(1)
}

let status = BenchmarkRun(options: options, workspace: workspace).run()

// Every path out of run() comes here: stop the children before the scratch directory goes.
Children.shared.stopAll()
if options.keepTemp {
    progress("kept \(workspace.directory.path)")
} else {
    workspace.remove()
}
exit(status)
