import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Scheduling through the bus on the demo: Schedule/CancelScheduled/RunScheduled and the `schedule` command with
/// dbus-send and gdbus, the demo's toast with its scheduled dismissal, the `saved` handler that bubbles, and a scheduled batch
/// surviving SIGKILL.
@Suite(.serialized) struct ScheduledBusTests {
    static func changes(_ fixture: DaemonFixture, _ window: String) async throws -> AsyncStream<Signal> {
        try await fixture.signals(path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Changed")
    }

    /// The window's `scheduled` list from GetState.
    static func scheduled(_ fixture: DaemonFixture, _ window: String) async throws -> [[String: Any]] {
        let text = try #require(try await fixture.window(window, "GetState").first?.string)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return object["scheduled"] as? [[String: Any]] ?? []
    }

    @Test func scheduleWithDbusSendRunsTheBatchAtItsDeadlineAsAScheduledChange() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let changes = try await Self.changes(fixture, window)
            let result = try await fixture.dbusSend(
                window, "Schedule",
                [#"string:[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"7"}}]}]"#, "uint64:200"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "s1", "\(result)")
            let ran = try await first(changes, timeout: .seconds(30)) {
                $0.arguments.count > 2 && ($0.arguments[2].string ?? "").contains(#""scheduled":"s1""#)
            }
            #expect(ran.arguments[2].string?.contains("stackAppend") == true)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("detail"))
            #expect(try await Self.scheduled(fixture, window).isEmpty)
        }
    }

    @Test func cancelScheduledWithGdbusRemovesItFromTheState() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let apply = try await fixture.gdbus(
                window, "Apply",
                [#"[{"command":"schedule","afterMs":600000,"id":"later","commands":[{"command":"goBack"}]}]"#, "{}"])
            #expect(apply.status == 0, "\(apply)")
            let listed = try await Self.scheduled(fixture, window)
            #expect(listed.map { $0["id"] as? String } == ["later"])
            #expect((listed.first?["deadline"] as? NSNumber)?.int64Value ?? 0 > Int64(Date().timeIntervalSince1970 * 1000))
            let cancel = try await fixture.gdbus(window, "CancelScheduled", ["later"])
            #expect(cancel.status == 0, "\(cancel)")
            #expect(try await Self.scheduled(fixture, window).isEmpty)
            let again = try await fixture.gdbus(window, "CancelScheduled", ["later"])
            #expect(again.status != 0 && again.stderr.contains("org.navsession.Error.UnknownScheduled"), "\(again)")
        }
    }

    @Test func runScheduledWithGdbusRunsTheBatchNowAsAScheduledChange() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let id = try #require(try await fixture.window(window, "Schedule", [
                .string(#"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"7"}}]}]"#), .uint64(600_000),
            ]).first?.string)
            let changes = try await Self.changes(fixture, window)
            let before = try await fixture.version(window)
            #expect(try await fixture.window(window, "RunScheduled", [.string(id)]).first?.uint64 == before + 1)
            let ran = try await first(changes, timeout: .seconds(30)) { _ in true }
            #expect(ran.arguments[2].string?.contains(#""scheduled":"\#(id)""#) == true, "\(ran.arguments)")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("detail"))
            #expect(try await Self.scheduled(fixture, window).isEmpty)
            let again = try await fixture.gdbus(window, "RunScheduled", [id])
            #expect(again.stderr.contains("org.navsession.Error.UnknownScheduled"), "\(again)")
        }
    }

    @Test func runScheduledOfAnotherClientsBatchIsAccessDenied() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let id = try #require(try await fixture.window(window, "Schedule", [
                .string(#"[{"command":"goBack"}]"#), .uint64(600_000),
            ]).first?.string)
            // gdbus is another process: not the author.
            let result = try await fixture.gdbus(window, "RunScheduled", [id])
            #expect(result.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(result)")
            #expect(try await Self.scheduled(fixture, window).count == 1)
        }
    }

    @Test func aBatchThatFailsWhenRunEarlyIsDroppedAndItsErrorIsTheReply() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let id = try #require(try await fixture.window(window, "Schedule", [
                .string(#"[{"command":"dismiss"}]"#), .uint64(600_000),
            ]).first?.string)
            let effects = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            let before = try await fixture.version(window)
            let error = await fixture.error { try await fixture.window(window, "RunScheduled", [.string(id)]) }
            #expect(error?.name.rawValue == "org.navsession.Error.NothingToDismiss", "\(String(describing: error))")
            #expect(try await fixture.version(window) == before)
            #expect(try await Self.scheduled(fixture, window).isEmpty)
            let effect = try await first(effects, timeout: .seconds(30)) { _ in true }
            #expect(effect.arguments.first?.string == "scheduledFailed", "\(effect.arguments)")
        }
    }

    @Test func aNestedScheduleIsInvalidBatch() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.dbusSend(
                window, "Schedule",
                [#"string:[{"command":"schedule","afterMs":1,"commands":[{"command":"dismiss"}]}]"#, "uint64:10"])
            #expect(result.status != 0 && result.stderr.contains("org.navsession.Error.InvalidBatch"), "\(result)")
        }
    }

    @Test func theSavedMessageFromADetailBubblesToTheTabsHandlerAndShowsTheToast() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let detail = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let messages = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Message")
            let result = try await fixture.dbusSend(
                window, "Apply", [#"string:[{"command":"sendMessage","name":"saved","payload":"42"}]"#, "dict:string:string:"])
            #expect(result.status == 0, "\(result)")
            // The toast is on the tabs (the handler's model); the Message still goes to the detail.
            #expect(try await fixture.windowProperty(window, "ActiveTag") == .string("toast"))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("toast"))
            let message = try await first(messages, timeout: .seconds(10)) { $0.arguments[1] == .string("saved") }
            #expect(message.arguments.first == .uint64(detail))
        }
    }

    @Test func theToastIsHiddenByItsScheduledDismissalUnlessAlreadyHidden() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let show = #"[{"command":"sendMessage","name":"saved"},"#
                + #"{"command":"schedule","afterMs":300,"id":"hideToast","overdue":"drop","commands":[{"command":"dismiss"}],"from":"tag:toast"}]"#
            let changes = try await Self.changes(fixture, window)
            #expect(try await fixture.gdbus(window, "Apply", [show, "{}"]).status == 0)
            _ = try await first(changes, timeout: .seconds(30)) { ($0.arguments[2].string ?? "").contains(#""scheduled":"hideToast""#) }
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            // Shown again and hidden by hand first: its dismissal goes with it, nothing is left to run. (A deadline
            // no busy machine reaches before the Dismiss below: the race is not what this part tests.)
            let showLong = show.replacingOccurrences(of: #""afterMs":300"#, with: #""afterMs":600000"#)
            #expect(try await fixture.gdbus(window, "Apply", [showLong, "{}"]).status == 0)
            #expect(try await Self.scheduled(fixture, window).count == 1)
            #expect(try await fixture.gdbus(window, "Dismiss", []).status == 0)
            #expect(try await Self.scheduled(fixture, window).isEmpty)
        }
    }

    @Test func aScheduledBatchSurvivesSIGKILLAndRunsAfterTheRestart() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let result = try await fixture.dbusSend(
                window, "Schedule",
                [#"string:[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"9"}}]}]"#, "uint64:3000"])
            #expect(result.status == 0, "\(result)")
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            try await fixture.relaunch()
            let changes = try await Self.changes(fixture, window)
            // Listed with its deadline after the restart, unless it already ran while the daemon came back.
            if try await fixture.windowProperty(window, "ActiveScreen") != .string("detail") {
                _ = try await first(changes, timeout: .seconds(30)) { ($0.arguments[2].string ?? "").contains(#""scheduled":"s1""#) }
            }
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("detail"))
            #expect(try await Self.scheduled(fixture, window).isEmpty)
        }
    }
}
