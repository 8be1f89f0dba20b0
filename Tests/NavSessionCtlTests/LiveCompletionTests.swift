import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Shell completion from the running daemon: the completion scripts call
/// `navsessionctl ---completion <subcommand> -- <argument> <word index> <cursor> <words…>` — driven here as the
/// shells do, against a fixture daemon.
@Suite(.timeLimit(.minutes(2)))
struct LiveCompletionTests {
    /// `navsessionctl ---completion SUBCOMMAND -- ARGUMENT INDEX CURSOR navsessionctl SUBCOMMAND WORDS…`, the last
    /// word the one being completed.
    static func complete(_ subcommand: String, _ argument: String, _ words: [String]) async throws -> CtlResult {
        let line = ["navsessionctl", subcommand] + words
        let current = line.count - 1
        return try await Ctl.run(
            ["---completion", subcommand, "--", argument, String(current), String(line[current].count)] + line)
    }

    @Test func windowNumbersCompleteFromTheDaemon() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.openWindow("main")
            _ = try await fixture.openWindow("waiting")
            let result = try await Self.complete("state", "positional@0", ["--bus", fixture.address, ""])
            #expect(result.status == 0, "\(result)")
            #expect(result.lines == ["1", "2"], "\(result)")
        }
    }

    @Test func scenesCompleteFromTheDaemon() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await Self.complete("open-window", "positional@0", ["--bus", fixture.address, ""])
            #expect(result.status == 0, "\(result)")
            #expect(Set(result.lines).isSuperset(of: ["main", "waiting"]), "\(result)")
        }
    }

    @Test func execCommandsCompleteByPrefix() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await Self.complete("exec", "positional@1", ["--bus", fixture.address, "1", "go-back"])
            #expect(result.status == 0, "\(result)")
            #expect(result.lines.contains("go-back-to") && result.lines.allSatisfy { $0.hasPrefix("go-back") }, "\(result)")
        }
    }

    @Test func anExecCommandsScreenCompletesWithTheWindowsScreens() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("main")
            try await fixture.exec(window, ["switch-model", "main"])
            try await fixture.exec(window, ["stack-append", "detail", "id=42"])
            let result = try await Self.complete(
                "exec", "positional@2", ["--bus", fixture.address, window, "go-back-to", ""])
            #expect(result.status == 0, "\(result)")
            #expect(Set(result.lines).isSuperset(of: ["detail", "home"]), "\(result)")
        }
    }

    /// A screen nothing shows yet (`editor`) is offered too: the manifest's declared screens (Session1 `Screens`).
    @Test func aPushsScreenCompletesWithTheManifestsDeclaredScreens() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("main")
            let result = try await Self.complete(
                "exec", "positional@2", ["--bus", fixture.address, window, "stack-append", "ed"])
            #expect(result.status == 0, "\(result)")
            #expect(result.lines == ["editor"], "\(result)")
        }
    }

    @Test func noDaemonGivesNoCandidatesAndNoError() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await Self.complete(
                "state", "positional@0", ["--bus", fixture.address, "--dest", "org.example.Nobody", ""])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
    }

    /// A daemon that owns its name but never answers (stopped): the completion gives up on its own deadline.
    @Test func aDaemonThatDoesNotAnswerGivesNoCandidatesAndNoHang() async throws {
        try await DaemonFixture.with { fixture in
            let daemon = try #require(fixture.daemon.process)
            daemon.signal(SIGSTOP)
            defer { daemon.signal(SIGCONT) }
            let result = try await Self.complete("state", "positional@0", ["--bus", fixture.address, ""])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
    }

    @Test func noBusGivesNoCandidatesAndNoError() async throws {
        let result = try await Self.complete("state", "positional@0", ["--bus", "unix:path=/nonexistent/bus", ""])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    /// The generated bash script itself, sourced and called as bash calls it on TAB after `exec --bus ADDRESS `.
    @Test func theBashScriptCompletesWindowNumbers() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.openWindow("main")
            let ctl = try Ctl.binary("navsessionctl").path
            let script = """
                source <('\(ctl)' --generate-completion-script bash)
                COMP_WORDS=('\(ctl)' exec --bus '\(fixture.address)' '')
                COMP_CWORD=4
                COMP_LINE="${COMP_WORDS[*]}"
                COMP_POINT=${#COMP_LINE}
                _navsessionctl '\(ctl)' '' '\(fixture.address)'
                echo "candidates: ${COMPREPLY[*]}"
                """
            let result = try await ToolRunner.run(
                "bash", ["-c", script], environment: [:], replacingEnvironment: Ctl.environment(), timeout: .seconds(60))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("candidates: 1"), "\(result)")
        }
    }
}
