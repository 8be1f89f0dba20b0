import Foundation

// session-benchmark: D-Bus cost of navsessiond against a minimal C libdbus echo service,
// measured in one run on one private bus. Method and results: Docs/bus-benchmark.md.

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("session-benchmark: \(error)\n".utf8))
    exit(2)
}

Children.installSignalHandlers()

let workspace: Workspace
do {
    workspace = try Workspace.create()
} catch {
    FileHandle.standardError.write(Data("session-benchmark: cannot create a scratch directory: \(error)\n".utf8))
    exit(1)
}

let status = BenchmarkRun(options: options, workspace: workspace).run()

// Every path out of run() comes here: stop the children before the scratch directory goes.
Children.shared.stopAll()
if options.keepTemp {
    FileHandle.standardError.write(Data("session-benchmark: kept \(workspace.directory.path)\n".utf8))
} else {
    workspace.remove()
}
exit(status)
