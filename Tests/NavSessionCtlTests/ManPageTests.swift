import DBusTestSupport
import Foundation
import Testing

/// The hand-written man pages in `dist/man` (issue 35, part D) against the binaries: every option and subcommand
/// the binary has (`--experimental-dump-help`) is in its page and nothing else, every section a reader expects
/// is there, groff renders them without a warning, and the daemon page's script example runs.
@Suite(.timeLimit(.minutes(2)))
struct ManPageTests {
    static let pages = ["navsessiond", "navsessionctl"]
    static let sections = ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]

    static func page(_ tool: String) throws -> String {
        try String(contentsOf: PrivateBus.repositoryRoot.appendingPathComponent("dist/man/\(tool).1"), encoding: .utf8)
    }

    /// The long options (`--name`, without the dashes) an mdoc text names with `Fl`.
    static func options(in text: some StringProtocol) -> Set<String> {
        Set(String(text).matches(of: #/\bFl -([a-z][a-z0-9-]*)/#).map { String($0.1) })
    }

    /// A command of `--experimental-dump-help`: its name, long option names and subcommands.
    struct Command {
        var name: String
        var options: Set<String>
        var subcommands: [Command]

        init(_ json: [String: Any]) {
            name = json["commandName"] as? String ?? ""
            // swift-argument-parser's own --help and --version flags are not the command's (wait's --version N is).
            let arguments = (json["arguments"] as? [[String: Any]] ?? []).filter { argument in
                let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                return !(argument["kind"] as? String == "flag" && names.contains { ["help", "version"].contains($0) })
            }
            options = Set(arguments.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).filter { ($0["kind"] as? String) == "long" }
                    .compactMap { $0["name"] as? String }
            })
            subcommands = (json["subcommands"] as? [[String: Any]] ?? []).map(Command.init)
        }
    }

    static func dumpHelp(_ tool: String) async throws -> Command {
        let result = try await ToolRunner.run(
            try Ctl.binary(tool).path, ["--experimental-dump-help"], environment: [:], timeout: .seconds(30))
        try #require(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return Command(try #require(json["command"] as? [String: Any]))
    }

    @Test(arguments: pages) func thePageRendersWithoutWarnings(tool: String) async throws {
        let path = PrivateBus.repositoryRoot.appendingPathComponent("dist/man/\(tool).1").path
        let result = try await ToolRunner.run(
            "groff", ["-mandoc", "-Tutf8", "-ww", "-z", path], environment: [:], timeout: .seconds(30))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test(arguments: pages) func thePageHasEverySection(tool: String) throws {
        let headings = Set(try Self.page(tool).split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) })
        for section in Self.sections {
            #expect(headings.contains(section), "\(tool).1 lacks \(section)")
        }
    }

    @Test func theDaemonPageNamesExactlyTheDaemonsOptions() async throws {
        let daemon = try await Self.dumpHelp("navsessiond")
        #expect(Self.options(in: try Self.page("navsessiond")) == daemon.options.union(["help", "version"]))
    }

    @Test func theCtlPageHasEverySubcommandWithExactlyItsOptions() async throws {
        let ctl = try await Self.dumpHelp("navsessionctl")
        let page = try Self.page("navsessionctl")
        let commands = try #require(page.firstRange(of: "\n.Sh COMMANDS\n"))
        let end = try #require(page[commands.upperBound...].firstRange(of: "\n.Sh "))
        var sections: [String: Substring] = [:]
        for block in page[commands.upperBound..<end.lowerBound].split(separator: "\n.Ss ").map({ $0.drop { $0 == "." } }) {
            let text = block.hasPrefix("Ss ") ? block.dropFirst(3) : block
            let name = String(text.prefix { $0 != "\n" })
            sections[name] = text
        }
        #expect(Set(sections.keys) == Set(ctl.subcommands.map(\.name)))
        for command in ctl.subcommands {
            let documented = sections[command.name].map { Self.options(in: $0) } ?? []
            #expect(documented == command.options,
                    "\(command.name): the page has \(documented.sorted()), the binary \(command.options.sorted())")
        }
    }

    @Test func theCtlPageNamesNoOptionTheBinaryLacks() async throws {
        let ctl = try await Self.dumpHelp("navsessionctl")
        let all = ctl.subcommands.reduce(ctl.options.union(["help", "version"])) { $0.union($1.options) }
        let extra = Self.options(in: try Self.page("navsessionctl")).subtracting(all)
        #expect(extra.isEmpty, "the page names \(extra.sorted())")
    }

    /// navsessiond(1)'s "From a script" example, with the built binaries first on the PATH.
    @Test func theDaemonPagesScriptExampleRuns() async throws {
        let page = try Self.page("navsessiond")
        let intro = try #require(page.firstRange(of: "From a script"))
        let start = try #require(page[intro.upperBound...].firstRange(of: ".Bd -literal -offset indent\n"))
        let end = try #require(page[start.upperBound...].firstRange(of: ".Ed\n"))
        let script = page[start.upperBound..<end.lowerBound].replacing(#"\e"#, with: #"\"#)
        let directory = try Ctl.binary("navsessionctl").deletingLastPathComponent().path
        let result = try await ToolRunner.run(
            "bash", ["-c", "set -e\n" + script], environment: ["PATH": "\(directory):/usr/bin:/bin"], timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("/org/navsession/Session1/window/1"), "\(result)")
    }
}
