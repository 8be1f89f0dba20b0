import DBusTestSupport
import Foundation
import Testing

/// Colour only on a capable terminal: a tty (through `script`), without `NO_COLOR`, with a `TERM` other than dumb.
@Suite(.timeLimit(.minutes(2)))
struct ColorTests {
    /// Runs `navsessionctl arguments…` on a pseudo-terminal made by util-linux `script`; stdout and stderr mixed.
    static func onTerminal(_ arguments: [String], environment extra: [String: String]) async throws -> String {
        let ctl = try Ctl.binary("navsessionctl").path
        let command = ([ctl] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try await ToolRunner.run(
            "/usr/bin/script", ["-qec", command, "/dev/null"], environment: [:],
            replacingEnvironment: Ctl.environment(extra), timeout: .seconds(30))
        return result.stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script"))
    func coloursOnlyOnACapableTerminal() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let arguments = ["tree", "--bus", daemon.address, window]
            let capable = try await Self.onTerminal(arguments, environment: ["TERM": "xterm"])
            #expect(capable.contains("\u{1B}[34m"), "\(capable)")
            for environment in [["TERM": "xterm", "NO_COLOR": ""], ["TERM": "xterm", "NO_COLOR": "1"], ["TERM": "dumb"]] {
                let plain = try await Self.onTerminal(arguments, environment: environment)
                #expect(plain.contains("switched ") && !plain.contains("\u{1B}["), "\(environment): \(plain)")
            }
            let forced = try await Self.onTerminal(["tree", "--color", "--bus", daemon.address, window],
                                                   environment: ["TERM": "dumb", "NO_COLOR": "1"])
            #expect(forced.contains("\u{1B}[34m"), "\(forced)")
            let pipe = try await daemon.ctl(["tree", window], environment: ["TERM": "xterm"])
            #expect(pipe.status == 0 && !pipe.stdout.contains("\u{1B}["), "\(pipe)")
        }
    }
}
