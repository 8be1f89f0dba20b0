import DBusTestSupport
import Testing

/// "Did you mean" for subcommands and exec commands; options before the subcommand or anywhere in `exec`.
@Suite(.timeLimit(.minutes(2)))
struct GlobalOptionTests {
    static let window1 = "/org/navsession/Session1/window/1 org.navsession.Window1"

    @Test func unknownSubcommandSuggestsTheClosest() async throws {
        let result = try await Ctl.run(["lsit"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown subcommand 'lsit'; did you mean 'list'?"), "\(result)")
        let far = try await Ctl.run(["xyzzy"])
        #expect(far.status == 64)
        #expect(far.stderr.contains("unknown subcommand 'xyzzy'") && !far.stderr.contains("did you mean"), "\(far)")
        let global = try await Ctl.run(["--dest", "org.example.X", "tre", "1"])
        #expect(global.stderr.contains("did you mean 'tree'?"), "\(global)")
    }

    @Test func unknownExecCommandSuggestsTheClosest() async throws {
        let result = try await Ctl.run(["exec", "--dry-run", "1", "stak-append", "x"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown command 'stak-append'; did you mean 'stack-append'?"), "\(result)")
    }

    @Test(arguments: [
        ["--dry-run", "1", "hide"],
        ["1", "--dry-run", "hide"],
        ["1", "hide", "--dry-run"],
        ["1", "--timeout", "5", "hide", "--dest=org.example.X", "--dry-run", "--json"],
    ])
    func execOptionsGoAnywhere(words: [String]) async throws {
        let result = try await Ctl.run(["exec"] + words)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(Self.window1).Hide()\n", "\(result)")
    }

    @Test func execKeepsItsCommandsOwnOptionsAndWordsAfterDoubleDash() async throws {
        let result = try await Ctl.run(["exec", "1", "stack-set-root", "home", "--clear", "--dry-run"])
        #expect(result.stdout == "\(Self.window1).StackSetRoot(sa{ss}b) \"home\" {} true\n", "\(result)")
        let literal = try await Ctl.run(["exec", "--dry-run", "1", "present-alert", "--", "--json", "m"])
        #expect(literal.stdout == "\(Self.window1).PresentAlert(ssas) \"--json\" \"m\" []\n", "\(literal)")
    }

    @Test func globalOptionsBeforeTheSubcommand() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let result = try await Ctl.run(["--bus", bus.address, "--dest", "org.example.Missing", "--json", "list"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no daemon owns org.example.Missing"), "\(result)")
        let equals = try await Ctl.run(["--bus=\(bus.address)", "--timeout=3", "exec", "--dry-run", "1", "hide"])
        #expect(equals.stdout == "\(Self.window1).Hide()\n", "\(equals)")
    }
}
