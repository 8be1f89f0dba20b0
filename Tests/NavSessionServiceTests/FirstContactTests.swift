import DBusTestSupport
import Foundation
import Testing
@testable import navsessiond

/// The first thing a new user runs (`swift run navsessiond --private-bus`) says what to type next, and that
/// works as printed.
@Suite(.timeLimit(.minutes(5)))
struct FirstContactTests {
    /// Starts the checkout's daemon with `--private-bus`, takes the hint's lines from its stderr (between
    /// "In another shell:" and the empty line) and runs them in another shell (from `/`: the hint does not depend
    /// on the directory it is pasted in): they open a window and list it.
    @Test func theBannerHintRunsAsPrintedFromACheckout() async throws {
        let daemon = try DaemonFixture.binary().path
        let script = """
            set -e
            exec 3< <(exec '\(daemon)' --private-bus --ephemeral 2>&1 >/dev/null)
            daemon=$!
            trap 'kill $daemon 2>/dev/null' EXIT
            hint=
            while IFS= read -r line <&3; do
              case $line in *"In another shell:") break ;; esac
            done
            while IFS= read -r line <&3 && [ -n "$line" ]; do hint+="$line"$'\\n'; done
            printf 'HINT<<%s>>\\n' "$hint"
            cd /
            # The lines as printed, in another shell. `swift test` (this process) holds the package's build lock
            # until it ends, which a user's second shell never meets (`swift run navsessiond` releases it before
            # the daemon starts), so the nested `swift run` is told to ignore the lock; nothing else changes.
            bash -c 'swift() { command swift "$1" --ignore-lock "${@:2}"; }'$'\n'"$hint"
            """
        let result = try await ToolRunner.run("bash", ["-c", script], environment: [:], timeout: .seconds(280))
        #expect(result.status == 0, "\(result)")
        let ctl = "swift run --package-path \(PrivateBus.repositoryRoot.path) navsessionctl"
        #expect(result.stdout.contains("\(ctl) open-window main && \(ctl) list\n"), "\(result)")
        #expect(result.stdout.contains("1 main v0"), "the hint's `list` shows the window: \(result)")
    }

    @Test func anotherApplicationsHintNamesItsBusName() {
        let text = FirstContactHint.text(
            address: "unix:path=/tmp/bus", busName: "org.example.Mail", scene: "inbox", executable: "/usr/bin/navsessiond",
            path: "/usr/bin", fileExists: { _ in true })
        #expect(text.contains("navsessionctl open-window inbox --dest org.example.Mail && navsessionctl list --dest org.example.Mail"))
        let demo = FirstContactHint.text(
            address: "unix:path=/tmp/bus", busName: "org.navsession.Demo", scene: "main", executable: "/usr/bin/navsessiond",
            path: "/usr/bin", fileExists: { _ in true })
        #expect(demo.contains("navsessionctl open-window main && navsessionctl list\n"))
    }

    @Test func anInstalledDaemonWhoseDirectoryIsOnThePathSuggestsTheBareCommand() {
        let command = FirstContactHint.command(
            executable: "/opt/nav/bin/navsessiond", path: "/usr/bin:/opt/nav/bin", fileExists: { _ in true })
        #expect(command == "navsessionctl")
    }

    @Test func anInstalledDaemonOffThePathSuggestsTheNavsessionctlBesideIt() {
        let command = FirstContactHint.command(
            executable: "/tmp/stage/usr/local/bin/navsessiond", path: "/usr/bin:/bin", fileExists: { _ in true })
        #expect(command == "/tmp/stage/usr/local/bin/navsessionctl")
    }
}
