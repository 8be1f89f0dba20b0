import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// navsessionctl's one-call commands (`exec`, `routes`, `state`) run on the main thread without starting a thread,
/// and answer — output, error line, exit status — exactly as the ordinary path does (OneShot.swift).
@Suite struct OneCallPathTests {
    /// The `clone`/`clone3` calls of one navsessionctl run under strace: how many threads it started.
    static func threadsStarted(_ fixture: DaemonFixture, _ arguments: [String]) async throws -> (ToolResult, Int) {
        let ctl = try BuiltProduct.require("navsessionctl").path
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("onecall-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let result = try await fixture.run("strace", ["-f", "-qq", "-e", "trace=clone,clone3", "-o", trace, ctl] + arguments)
        let lines = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        return (result, lines.split(separator: "\n").filter { $0.contains("clone") }.count)
    }

    @Test func execRoutesAndStateStartNoThread() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let (push, pushThreads) = try await Self.threadsStarted(fixture, ["exec", "1", "stack-append", "about"])
            #expect(push.status == 0 && UInt64(push.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(push)")
            #expect(pushThreads == 0, "exec started \(pushThreads) threads")
            let (routes, routesThreads) = try await Self.threadsStarted(fixture, ["routes", "1", "--json"])
            #expect(routes.status == 0 && routes.stdout.contains(#""screen":"about""#), "\(routes)")
            #expect(routesThreads == 0, "routes started \(routesThreads) threads")
            let (state, stateThreads) = try await Self.threadsStarted(fixture, ["state", "1"])
            #expect(state.status == 0 && state.stdout.contains("\"models\""), "\(state)")
            #expect(stateThreads == 0, "state started \(stateThreads) threads")
        }
    }

    /// A refused call: the same line and status as the ordinary path (`--hold` takes it: it stays connected).
    @Test func aRefusedCallIsReportedAsTheOrdinaryPathReportsIt() async throws {
        try await DaemonFixture.with { fixture in
            _ = try await fixture.openWindow()
            let ctl = try BuiltProduct.require("navsessionctl").path
            let oneCall = try await fixture.run(ctl, ["exec", "1", "stack-drop-last"])
            let ordinary = try await fixture.run(ctl, ["exec", "--hold", "1", "stack-drop-last"])
            #expect(oneCall.status == 1 && oneCall.stderr.hasPrefix("navsessionctl: org.navsession.Error."), "\(oneCall)")
            #expect(oneCall.status == ordinary.status && oneCall.stderr == ordinary.stderr && oneCall.stdout == ordinary.stdout, "\(oneCall) \(ordinary)")
        }
    }

    /// No daemon owns the name: the call was not delivered, so the ordinary path makes it and lists the names present.
    @Test func anUndeliveredCallFallsBackToTheOrdinaryPathsReport() async throws {
        try await DaemonFixture.with { fixture in
            let ctl = try BuiltProduct.require("navsessionctl").path
            let result = try await fixture.run(ctl, ["routes", "1", "--dest", "org.navsession.Nobody"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("no daemon owns org.navsession.Nobody") && result.stderr.contains("names on this bus"), "\(result)")
        }
    }
}
