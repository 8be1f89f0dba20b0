import ArgumentParser
import Foundation
import DBusTestSupport
import Testing
@testable import navsessionctl

/// The direct parse (`DirectParser`) never disagrees with swift-argument-parser, which stays the definition of
/// every command: a command line it accepts gives the very command swift-argument-parser's parse gives, its
/// shapes are the commands' declarations, and the ordinary command lines of every subcommand take it.
@Suite
struct DirectParserTests {
    /// Ordinary command lines, as typed (before `GlobalArguments.rewrite`); each must be parsed directly.
    static let ordinary: [[String]] = [
        ["list"], ["list", "--json"], ["--dest", "org.navsession.Other", "list"], ["list", "--timeout=2.5"],
        ["list", "--bus", "unix:path=/tmp/bus"], ["list", "--bus=system", "--dest=a.b", "--timeout", "3"],
        ["open-window", "main"], ["open-window", "main", "id=3", "title=x y", "--json"],
        ["open-window", "--dry-run", "main", "id=3"],
        ["dismiss-window", "2"], ["dismiss-window", "/org/navsession/Session1/window/2"],
        ["open-url", "navsession-demo:detail/42"], ["open-url", "--json", "https://example.com/a?b=c"],
        ["exec", "1", "switch-model", "main"], ["exec", "1", "stack-append", "detail", "id=42"],
        ["exec", "1", "present", "sheet+stack", "editor", "id=42"],
        ["exec", "1", "present-alert", "Discard?", "Changes will be lost.", "discard:Discard:destructive"],
        ["exec", "1", "dismiss"], ["exec", "--dry-run", "1", "stack-drop-last", "2"],
        ["exec", "1", "apply", "--expected-version=5", "[{\"command\":\"dismiss\"}]"],
        ["exec", "1", "--json", "stack-append", "detail"], ["--json", "exec", "1", "dismiss"],
        ["exec", "1", "stack-append", "detail", "--dest", "org.navsession.Other"],
        ["state", "1"], ["state", "1", "--json"], ["state", "2", "--set", "saved.json"],
        ["tree", "1"], ["tree", "1", "--no-color"], ["tree", "--color", "1"],
        ["routes", "1"], ["routes", "1", "--json"], ["--json", "routes", "1"], ["routes", "--timeout=1", "7"],
        ["watch"], ["watch", "1"], ["watch", "1", "--count", "3", "--json"],
        ["wait", "1", "--version", "3"], ["wait", "1", "--screen", "detail", "--timeout", "5"],
        ["wait", "1", "--closed"], ["wait", "1", "--routes", "[]"], ["wait", "--version=2", "--screen=a", "1"],
        ["graph", "1"], ["graph", "1", "--dot"], ["guards"], ["guards", "--json"], ["--json", "guards"],
        ["status"], ["status", "--json"], ["--json", "status", "--dest", "org.navsession.Other"],
        ["closed"], ["closed", "--json"], ["reopen"], ["reopen", "3"], ["reopen", "--json", "3"],
        ["session", "save", "work"], ["session", "save", "work", "1", "3"], ["session", "open", "--json", "work"],
        ["move", "1", "5"], ["move", "1", "5", "2", "--placement", "{\"tabs\":3}"], ["move", "--json", "1", "0", "new"],
        ["manifest", "check", "app.json"], ["group", "work", "1", "3"], ["group", "work"], ["policy", "1", "{\"change\":[]}"], ["policy", "2"], ["stats"], ["stats", "--openmetrics", "detail"], ["manifest", "reload", "--json", "app.json"],
        ["plan", "--from", "[]", "--to", "[{\"style\":\"push\",\"screen\":\"a\"}]"],
        ["plan", "--to", "[]", "--from", "[]", "--pretty", "--multi-dismiss", "--pushes-in-one"],
        ["history", "1"], ["history", "1", "--json"], ["state", "1", "--at", "3"], ["state", "--at=0", "--json", "2"],
        ["trace", "export", "1"], ["trace", "export", "--all"], ["trace", "replay", "trace.json"],
    ]

    /// Command lines at the edges: each is either declined or parsed as swift-argument-parser parses it.
    static let edges: [[String]] = [
        [], ["help"], ["help", "routes"], ["--version"], ["--help"], ["-h"], ["routes"], ["routes", "1", "2"],
        ["routes", "x"], ["routes", "0"], ["routes", "-1"], ["routes", "1", "--json", "--json"], ["routes", "1", "--dest"],
        ["routes", "1", "--dest", "--json"], ["routes", "1", "--dest=a.b", "--dest=c.d"], ["routes", "1", "--dest", "a.b", "--dest", "c.d"],
        ["routes", "1", "--dest="], ["routes", "1", "-h"], ["routes", "1", "--help"], ["routes", "--version"],
        ["routes", "1", "--"], ["routes", "--", "1"], ["routes", "1", "--timeout", "0"], ["routes", "1", "--timeout=abc"],
        ["routes", "1", "--dest", "not a name"], ["routes", "1", "--bogus"], ["routes", "1", "--json=true"],
        ["routes", "1", "-j"], ["routes", "1", "--experimental-dump-help"], ["routes", "--generate-completion-script", "bash"],
        ["routes", "list"], ["routes", "1", "--dest", "list"], ["routes", "/not/a/window"], ["routes", "/"],
        ["wait", "1"], ["wait", "1", "--closed", "--version", "2"], ["wait", "1", "--version", "-1"],
        ["wait", "1", "--version", "x"], ["wait", "1", "--routes", "not json"], ["wait", "1", "--screen", "list"],
        ["wait", "1", "--screen=list"], ["watch", "--count", "0"], ["watch", "--count", "x"], ["watch", "1", "2"],
        ["exec"], ["exec", "1"], ["exec", "1", "push", "--", "-x"], ["exec", "1", "--", "dismiss"],
        ["exec", "1", "dismiss", "--help"], ["exec", "1", "dismiss", "-h"], ["exec", "1", "dismiss", "-vh"],
        ["exec", "1", "dismiss", "--version"], ["exec", "1", "stack-append", "--source=a", "detail"],
        ["exec", "1", "nonsense"], ["exec", "1", "stack-append"], ["exec", "1", "stack-append", "list"],
        ["exec", "x", "dismiss"], ["exec", "1", "dismiss", "extra"], ["exec", "1", "apply", "--expected-version=x", "[]"],
        ["exec", "1", "dismiss", "---completion"], ["exec", "1", "stack-append", "detail", "--bogus"],
        ["open-window"], ["open-window", "main", "routes"], ["open-window", "main", "novalue"],
        ["open-window", "main", "-x"], ["state", "1", "--set", "-"], ["state", "1", "--set"],
        ["plan", "--from", "[]"], ["plan", "--from", "x", "--to", "[]"], ["plan", "1"],
        ["tree", "1", "--color", "--no-color"], ["list", "extra"], ["list", "--json", "--dest", "a..b"],
        ["graph"], ["dismiss-window", "1", "2"], ["open-url"], ["open-url", "a", "b"],
        ["open-url", ""], ["routes", "1", "--dest", ""], ["wait", "1", "--screen", ""], ["open-window", "main", ""],
        ["exec", "1", "stack-append", "détail", "titre=été"], ["routes", "١"], ["watch", "--count", "+3"],
        ["wait", "1", "--version", "0x10"], ["routes", "--timeout", "1e1", "1"],
    ]

    /// What a parse gave, comparable: the command's type and every property (a property wrapper left unset
    /// prints as a definition, not a value).
    static func describe(_ command: any ParsableCommand) -> String {
        "\(type(of: command)): \(String(describing: command))"
    }

    @Test(arguments: ordinary + edges)
    func aDirectParseIsArgumentParsersParse(line: [String]) throws {
        let arguments = GlobalArguments.rewrite(line)
        guard let direct = DirectParser.command(for: arguments) else { return }
        let parsed = try NavSessionCtl.parseAsRoot(arguments)
        #expect(Self.describe(direct) == Self.describe(parsed))
        #expect(!Self.describe(direct).contains("definition"), "a property left unset: \(Self.describe(direct))")
    }

    /// Random lines from the words the parsers treat specially (every subcommand and option, `--`, short and
    /// help options, values that do and do not convert), seeded so a failure repeats.
    @Test func randomCommandLinesNeverDisagree() throws {
        let vocabulary = DirectParser.commands.keys.sorted() + [
            "help", "--bus", "--dest", "--timeout", "--json", "--dry-run", "--no-color", "--color", "--dot", "--count",
            "--version", "--screen", "--routes", "--closed", "--set", "--from", "--to", "--pretty", "--multi-dismiss",
            "--pushes-in-one", "--", "-h", "--help", "-x", "-", "--bogus", "--dest=a.b", "--timeout=2", "--count=2",
            "1", "2", "0", "-1", "x", "/org/navsession/Session1/window/3", "main", "detail", "id=3", "a.b", "[]", "5",
            "push", "dismiss", "stack-append", "switch-model", "--expected-version=1", "--clear", "",
        ]
        let subcommands = DirectParser.commands.keys.sorted()
        var generator = SplitMix64(seed: 12)
        var accepted = 0
        for _ in 0..<6000 {
            // A subcommand (now and then after a global option), then up to five more words.
            var line = [subcommands[Int(generator.next() % UInt64(subcommands.count))]]
            if generator.next() % 4 == 0 { line.insert(generator.next() % 2 == 0 ? "--json" : "--dest=a.b", at: 0) }
            line += (0..<Int(generator.next() % 6)).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
            let arguments = GlobalArguments.rewrite(line)
            guard let direct = DirectParser.command(for: arguments) else { continue }
            accepted += 1
            let parsed = try NavSessionCtl.parseAsRoot(arguments)
            #expect(Self.describe(direct) == Self.describe(parsed), "\(line)")
        }
        #expect(accepted > 200, "too few random lines were parsed directly to compare: \(accepted)")
    }

    @Test(arguments: ordinary)
    func anOrdinaryCommandLineIsParsedDirectly(line: [String]) {
        #expect(DirectParser.command(for: GlobalArguments.rewrite(line)) != nil)
    }

    @Test func everySubcommandIsParsedDirectly() {
        let names = NavSessionCtl.configuration.subcommands.compactMap { $0.configuration.commandName }
        #expect(Set(names) == Set(DirectParser.commands.keys))
        let covered = Set(Self.ordinary.map { GlobalArguments.rewrite($0)[0] })
        #expect(covered == Set(names))
    }

    /// The shapes list exactly the options, flags and positional arguments the commands declare, as
    /// swift-argument-parser describes them (`--experimental-dump-help`).
    @Test func everyShapeIsItsCommandsDeclaration() throws {
        let dump = try JSONSerialization.jsonObject(with: Data(NavSessionCtl._dumpHelp().utf8)) as? [String: Any]
        let root = try #require(dump?["command"] as? [String: Any])
        let subcommands = try #require(root["subcommands"] as? [[String: Any]])
        for (name, type) in DirectParser.commands {
            let command = try #require(subcommands.first { $0["commandName"] as? String == name }, "\(name)")
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            func longNames(_ kind: String) -> Set<String> {
                Set(arguments.filter { $0["kind"] as? String == kind }.compactMap { argument in
                    (argument["names"] as? [[String: Any]])?.first { $0["kind"] as? String == "long" }?["name"] as? String
                })
            }
            let shape = type.directShape
            #expect(longNames("option") == shape.options, "\(name)")
            #expect(longNames("flag").subtracting(["help", "version"]) == shape.flags, "\(name)")
            let positionals = arguments.filter { $0["kind"] as? String == "positional" }
            let required = positionals.filter { $0["isOptional"] as? Bool != true }.count
            let unbounded = positionals.contains { $0["isRepeating"] as? Bool == true }
            #expect(shape.positionals.lowerBound == required, "\(name)")
            if let passthrough = shape.passthroughAfter {
                #expect(passthrough == positionals.count - 1, "\(name)")
                #expect(positionals.last?["parsingStrategy"] as? String == "allRemainingInput", "\(name)")
            } else {
                #expect(shape.positionals.upperBound == (unbounded ? Int.max : positionals.count), "\(name)")
            }
        }
    }
}

