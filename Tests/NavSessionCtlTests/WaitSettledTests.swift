import Foundation
import Testing

/// `navsessionctl wait --settled` and `exec report-settled`.
@Suite(.timeLimit(.minutes(2)))
struct WaitSettledTests {
    @Test func waitSettledReturnsWhenTheVersionIsReportedSettled() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let version = try await daemon.exec(window, ["switch-model", "main"])
            let wait = try BackgroundCtl(daemon.withBus(["wait", "--settled", window]))
            let report = try await daemon.ctl(["exec", window, "report-settled", String(version)])
            #expect(report.status == 0, "\(report)")
            let result = await wait.finish()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(version), "\(result)")
        }
    }

    @Test func waitSettledWithNoRendererTimesOutSayingNoneFollows() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            let result = try await daemon.ctl(["wait", "--settled", "--timeout", "0.5", window])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("no renderer follows"), "\(result)")
        }
    }
}

/// `navsessionctl watch --model N WINDOW`: per-model observation.
@Suite(.timeLimit(.minutes(2)))
struct WatchModelTests {
    @Test func watchModelPrintsOnlyThatModelsChanges() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            try await daemon.exec(window, ["switch-model", "main"])
            let watch = try BackgroundCtl(daemon.withBus(["watch", "--model", "0", "--count", "1", window]))
            try await watch.waitForStderr(containing: "watching")
            try await daemon.exec(window, ["stack-append", "detail", "id=1"])
            try await daemon.exec(window, ["stack-drop-last"])
            try await daemon.exec(window, ["set-title", "0", "Home"])
            let result = await watch.finish()
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 1, "\(result)")
            #expect(lines.first?.contains("ModelChanged") == true && lines.first?.contains(#""title":"Home""#) == true, "\(result)")
        }
    }
}
