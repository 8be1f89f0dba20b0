import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The README's two-minute tour, run exactly as the README prints it, twice in a row: it must work when
/// pasted again (a fresh session each time, no race with the previous run's files or the watcher).
@Suite(.serialized) struct ReadmeTourTests {
    /// The first ```sh block after "## Two-minute tour".
    static func tour() throws -> String { try shellBlock(after: "## Two-minute tour") }

    /// The first ```sh block after `heading` in README.md.
    static func shellBlock(after heading: String) throws -> String {
        let readme = try String(contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: heading))
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    @Test func theTourWorksTwiceInARow() async throws {
        let script = try Self.tour()
        #expect(script.contains("navsessiond --private-bus"))
        var outputs: [String] = []
        for run in 1...2 {
            let result = try await Self.run(script, timeout: .seconds(60))
            #expect(result.status == 0, "run \(run): \(result)")
            let output = result.stdout + result.stderr
            #expect(output.contains(#"object path "/org/navsession/Session1/window/1""#), "run \(run): \(output)")
            #expect(output.contains("1 Changed version=1 previous=0"), "run \(run): the watcher saw the log-in: \(output)")
            #expect(output.contains("org.navsession.Error.NothingToDismiss"), "run \(run): \(output)")
            #expect(output.contains(#""version": 9"#), "run \(run): the final state, after nine changes: \(output)")
            try Self.checkClaims(output, run: run)
            outputs.append(output)
        }
        #expect(Self.normalized(outputs[0]) == Self.normalized(outputs[1]), "both runs print the same")
    }

    /// Runs a README block as printed, from the repository root, with a bare `PATH`. `swift build` has already run
    /// (this is `swift test`); a shell function keeps the block's `swift build` line as printed without starting a
    /// second build inside this one. A function, not a stub executable in PATH: a file this process writes can be
    /// held open for writing by a child another test forks at that moment, and executing it then fails with
    /// ETXTBSY ("Text file busy").
    static func run(_ script: String, timeout: Duration) async throws -> ToolResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("block.sh")
        try ("swift() { :; }\ncd '\(PrivateBus.repositoryRoot.path)'\n" + script).write(to: file, atomically: true, encoding: .utf8)
        return try await ToolRunner.run("bash", [file.path], environment: ["PATH": "/usr/bin:/bin"], timeout: timeout)
    }

    /// "Try a guard from the shell", as printed: the held mark refuses `go-back` and shows the manifest's dialog,
    /// "Keep editing" keeps the detail, "Discard" runs the refused move.
    @Test func theGuardSectionWorksAsPrinted() async throws {
        let script = try Self.shellBlock(after: "## Try a guard from the shell")
        #expect(script.contains("exec --hold 1 protect"))
        let result = try await Self.run(script, timeout: .seconds(120))
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(result)")
        let refusals = output.components(separatedBy: "org.navsession.Error.Prevented: model #9 is protected (unsaved draft)")
        #expect(refusals.count == 3, "two refused go-backs: \(output)")
        #expect(output.contains("alert alert #10 (alert)"), "the dialog: \(output)")
        #expect(!output.contains("UnknownModel") && !output.contains("timed out"), "\(output)")
        #expect(output.contains("back home"), "\(output)")
    }

    /// What the tour's comments say, read from its output: the watcher's line for each version and the replies.
    static func checkClaims(_ output: String, run: Int) throws {
        func change(_ version: Int) throws -> String {
            let prefix = "1 Changed version=\(version) previous=\(version - 1) "
            return String(try #require(output.split(separator: "\n").first { $0.hasPrefix(prefix) }, "run \(run): v\(version)"))
        }
        // "Each reply is the new version."
        for version in 2...4 { #expect(output.contains("   uint64 \(version)\n"), "run \(run): reply \(version)") }
        // The tree: the alert on the editor's sheet, over the detail pushed on the home tab.
        #expect(output.contains("alert alert #12 (alert)") && output.contains("screen detail #9 (path[1])"), "run \(run)")
        // "dismisses the sheet, selects the settings tab and pushes the profile, as one change."
        let link = try change(6)
        #expect(link.contains("finished=[10,11]") && link.contains(#""kind":"selectTab""#), "\(link)")
        #expect(link.contains(#"{"kind":"push","stack":7,"models":[13]}"#), "\(link)")
        // "the profile stays (same id, no lifecycle), a sheet is added"
        let routes = try change(7)
        #expect(routes.contains("started=[14] finished=[]"), "the profile (13) stays: \(routes)")
        #expect(routes.contains(#"{"kind":"present","presenter":4,"model":14,"style":"sheet"}"#), "\(routes)")
        // "dismisses the sheet", then "pops the profile"
        #expect(try change(8).contains(#"finished=[14]"#) && change(8).contains(#""kind":"dismiss""#), "run \(run)")
        #expect(try change(9).contains(#"finished=[13]"#) && change(9).contains(#""kind":"pop","stack":7"#), "run \(run)")
    }

    /// The output without what differs between runs (times, serials, unique names, bus addresses), sorted
    /// by line because the watcher's lines interleave with the commands' replies.
    static func normalized(_ output: String) -> [String] {
        output.split(separator: "\n").map { line in
            String(line)
                .replacing(#/time=[0-9.]+/#, with: "")
                .replacing(#/serial=[0-9]+/#, with: "")
                .replacing(#/:1\.[0-9]+/#, with: ":1.x")
                .replacing(#/unix:[^ ]*/#, with: "unix:")
        }.sorted()
    }
}
