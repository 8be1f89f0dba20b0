import DBusKit
import DBusTestSupport
import Foundation
import Glibc
import NavSessionTesting
import Testing

/// Session1.ListClosedWindows, Session1.ReopenWindow and the Application action `reopen-window`,
/// through the bus with dbus-send and gdbus on the demo manifest.
@Suite struct ClosedWindowBusTests {
    /// Calls a Session1 method with dbus-send (`--print-reply=literal`).
    static func dbusSend(_ fixture: DaemonFixture, _ member: String, _ arguments: [String] = []) async throws -> ToolResult {
        try await fixture.run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", DaemonFixture.session,
                          "org.navsession.Session1.\(member)"] + arguments)
    }

    /// ListClosedWindows' entries, through dbus-send.
    static func closed(_ fixture: DaemonFixture) async throws -> [[String: Any]] {
        let result = try await dbusSend(fixture, "ListClosedWindows")
        #expect(result.status == 0, "\(result)")
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    /// The demo's main window, logged in, showing detail 42; its path.
    static func mainOnDetail(_ fixture: DaemonFixture) async throws -> String {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
        return window
    }

    static func number(of path: String) -> String { String(path.split(separator: "/").last ?? "") }

    @Test func aDismissedWindowIsListedAndReopensWithItsNavigationUnderANewNumber() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await Self.mainOnDetail(fixture)
            #expect(try await Self.dbusSend(fixture, "DismissWindow", ["objpath:\(window)"]).status == 0)
            let entry = try #require(try await Self.closed(fixture).first)
            #expect(entry["id"] as? String == Self.number(of: window))
            #expect(entry["activeScreen"] as? String == "detail")
            #expect(entry["scene"] as? String == "main")
            let reopened = try await Self.dbusSend(fixture, "ReopenWindow", ["string:\(Self.number(of: window))"])
            #expect(reopened.status == 0, "\(reopened)")
            let path = reopened.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(path.hasPrefix("/org/navsession/Session1/window/") && path != window, "\(path)")
            #expect(try await fixture.windowProperty(path, "ActiveScreen") == .string("detail"))
            #expect(try await Self.closed(fixture).isEmpty)
        }
    }

    @Test func anUnknownIdIsUnknownClosedWindow() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                          "--method", "org.navsession.Session1.ReopenWindow", "99"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.UnknownClosedWindow"), "\(result)")
        }
    }

    @Test func theReopenWindowActionReopensTheMostRecentlyClosedWindow() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await Self.mainOnDetail(fixture)
            _ = try await fixture.session("DismissWindow", [.objectPath(try ObjectPath(window))])
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.applicationPath,
                          "--method", "org.freedesktop.Application.ActivateAction", "reopen-window", "[]", "{}"])
            #expect(result.status == 0, "\(result)")
            let windows = try #require(try await fixture.session("ListWindows").first?.arrayElements)
            let path = try #require(windows.last?.objectPath?.rawValue)
            #expect(path != window)
            #expect(try await fixture.windowProperty(path, "ActiveScreen") == .string("detail"))
        }
    }

    @Test func theListAndItsWindowsStateSurviveSIGKILL() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await Self.mainOnDetail(fixture)
            #expect(try await Self.dbusSend(fixture, "DismissWindow", ["objpath:\(window)"]).status == 0)
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            try await fixture.relaunch()
            let entry = try #require(try await Self.closed(fixture).first)
            #expect(entry["id"] as? String == Self.number(of: window))
            let reopened = try await Self.dbusSend(fixture, "ReopenWindow", ["string:"])
            #expect(reopened.status == 0, "\(reopened)")
            let path = reopened.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await fixture.windowProperty(path, "ActiveScreen") == .string("detail"))
        }
    }
}
