import DBusTestSupport
import Foundation
import Testing

/// The hand-written man pages in `dist/man` against the binaries: every option and subcommand
/// the binary has (`--experimental-dump-help`) is in its page and nothing else, navsession-manifest(5) lists the
/// manifest's top-level keys, every section a reader expects is there, groff renders them without a warning, and
/// the examples that can run here do.
@Suite(.timeLimit(.minutes(2)))
struct ManPageTests {
    static let pages = ["navsessiond.1", "navsessionctl.1", "navsession-manifest.5"]
    /// The sections of a command's page; a file format's page (section 5) has no ENVIRONMENT or EXIT STATUS.
    static func sections(of page: String) -> [String] {
        page.hasSuffix(".1")
            ? ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]
            : ["NAME", "SYNOPSIS", "DESCRIPTION", "FILES", "EXAMPLES", "SEE ALSO"]
    }

    static func page(_ tool: String) throws -> String {
        try text("dist/man/\(tool.contains(".") ? tool : tool + ".1")")
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: PrivateBus.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text of section `name` (`.Sh NAME`) of an mdoc page, up to the next section.
    static func section(_ name: String, of page: String) throws -> Substring {
        let start = try #require(page.firstRange(of: "\n.Sh \(name)\n"), "no section \(name)")
        let end = page[start.upperBound...].firstRange(of: "\n.Sh ")?.lowerBound ?? page.endIndex
        return page[start.upperBound..<end]
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

    @Test(arguments: pages) func thePageRendersWithoutWarnings(page: String) async throws {
        let path = PrivateBus.repositoryRoot.appendingPathComponent("dist/man/\(page)").path
        let result = try await ToolRunner.run(
            "groff", ["-mandoc", "-Tutf8", "-ww", "-z", path], environment: [:], timeout: .seconds(30))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test(arguments: pages) func thePageHasEverySection(page: String) throws {
        let headings = Set(try Self.page(page).split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) })
        for section in Self.sections(of: page) {
            #expect(headings.contains(section), "\(page) lacks \(section)")
        }
    }

    @Test func theManifestPageListsExactlyTheManifestsTopLevelKeys() throws {
        let keys = try Self.section("KEYS", of: try Self.page("navsession-manifest.5"))
        let documented = Set(keys.split(separator: "\n").filter { $0.hasPrefix(".It Cm ") }.map { String($0.dropFirst(7)) })
        let source = try Self.text("Sources/NavigationSession/Manifest/ManifestDocument.swift")
        let codingKeys = try #require(source.firstMatch(of: #/enum CodingKeys: String, CodingKey, CaseIterable \{([^}]*)\}/#)).1
        let declared = Set(codingKeys.matches(of: #/case ([^\n]+)/#).flatMap {
            // `case schema = "$schema"`: the key as written in JSON is the raw value.
            $0.1.split(separator: ",").map { item in
                let key = item.trimmingCharacters(in: .whitespaces)
                return key.firstMatch(of: #/= "([^"]+)"/#).map { String($0.1) } ?? key
            }
        })
        #expect(!declared.isEmpty)
        #expect(documented == declared)
    }

    /// navsession-manifest(5)'s minimal application loads and serves.
    @Test func theManifestPagesMinimalExampleServes() async throws {
        let examples = try Self.section("EXAMPLES", of: try Self.page("navsession-manifest.5"))
        let open = try #require(examples.firstRange(of: "\n{\n"))
        let close = try #require(examples[open.upperBound...].firstRange(of: "\n}\n"))
        let json = "{\n" + examples[open.upperBound..<close.lowerBound] + "\n}\n"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(json.utf8).write(to: directory.appendingPathComponent("notes.json"))
        let script = """
            cd '\(directory.path)'
            exec 3< <(exec '\(try Ctl.binary("navsessiond").path)' --manifest notes.json --private-bus 2> log)
            daemon=$!
            read -r address <&3 || { cat log; exit 1; }
            export "$address"
            '\(try Ctl.binary("navsessionctl").path)' open-window --dest org.example.Notes main
            kill $daemon; wait $daemon
            """
        let result = try await ToolRunner.run("bash", ["-c", script], environment: [:], timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("/org/navsession/Session1/window/1"), "\(result)")
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
