import Foundation
import Testing

/// `navsessionctl wait`: returns as soon as the window reaches the state, from its change stream.
@Suite(.timeLimit(.minutes(2)))
struct WaitCommandTests {
    @Test func waitsForAVersionThatArrivesLater() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let start = try await daemon.exec(window, ["switch-model", "main"])
            // Whether `wait` subscribes before or after these commands, the condition is met exactly once.
            let wait = try BackgroundCtl(daemon.withBus(["wait", "--version", String(start + 2), window]))
            try await daemon.exec(window, ["stack-append", "detail", "id=1"])
            try await daemon.exec(window, ["stack-append", "profile"])
            let result = await wait.finish()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            let already = try await daemon.ctl(["wait", "--version", String(start), window])
            #expect(already.status == 0, "\(already)")
        }
    }

    @Test func waitsForAScreenAndForRoutes() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            try await daemon.exec(window, ["switch-model", "main"])
            try await daemon.exec(window, ["stack-append", "detail", "id=9"])
            let routes = try await daemon.ctl(["routes", "--json", window])
            #expect(routes.status == 0, "\(routes)")
            try await daemon.exec(window, ["stack-drop-last"])
            // The same routes, indented and with spaces: compared as parsed JSON, not as text.
            let parsed = try JSONSerialization.jsonObject(with: Data(routes.stdout.utf8))
            let indented = String(decoding: try JSONSerialization.data(withJSONObject: parsed, options: [.prettyPrinted]),
                                  as: UTF8.self)
            let screen = try BackgroundCtl(daemon.withBus(["wait", "--screen", "detail", window]))
            let route = try BackgroundCtl(daemon.withBus(["wait", "--routes", indented, window]))
            try await daemon.exec(window, ["stack-append", "detail", "id=9"])
            let screenResult = await screen.finish()
            let routeResult = await route.finish()
            #expect(screenResult.status == 0, "\(screenResult)")
            #expect(routeResult.status == 0, "\(routeResult)")
        }
    }

    @Test func waitsForTheWindowToClose() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("waiting")
            let wait = try BackgroundCtl(daemon.withBus(["wait", "--closed", window]))
            let dismissed = try await daemon.ctl(["dismiss-window", window])
            #expect(dismissed.status == 0, "\(dismissed)")
            let result = await wait.finish()
            #expect(result.status == 0, "\(result)")
            let gone = try await daemon.ctl(["wait", "--closed", window])
            #expect(gone.status == 0, "\(gone)")
        }
    }

    @Test func aTimeoutPrintsTheLastState() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let version = try await daemon.exec(window, ["switch-model", "main"])
            let result = try await daemon.ctl(["wait", "--json", "--timeout", "0.5", "--screen", "nowhere", window])
            #expect(result.status == 1, "\(result)")
            let state = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(state?["version"] as? Int == Int(version), "\(result)")
            // The readiness line ("waiting for …", once subscribed), then the one timeout line.
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.first == "waiting for screen nowhere", "\(result)")
            #expect(lines.last?.hasPrefix("navsessionctl: timed out after 0.5 s waiting for screen nowhere") == true, "\(result)")
            #expect(lines.count == 2, "\(result)")
        }
    }

    @Test func aWindowThatClosesWhileWaitedForFails() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("waiting")
            let wait = try BackgroundCtl(daemon.withBus(["wait", "--screen", "elsewhere", window]))
            try await wait.waitForStderr(containing: "waiting for")
            _ = try await daemon.ctl(["dismiss-window", window])
            let result = await wait.finish()
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("navsessionctl: the window /org/navsession/Session1/window/"), "\(result)")
        }
    }

    @Test(arguments: [
        (["1"], "give a condition"),
        (["--closed", "--version", "3", "1"], "--closed cannot be combined"),
        (["--routes", "[not json", "1"], "--routes must be JSON"),
        (["--version", "-1", "1"], "version"),
        (["--screen", "a"], "window"),
    ])
    func usageErrorsExit64(words: [String], message: String) async throws {
        let result = try await Ctl.run(["wait"] + words)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }
}
