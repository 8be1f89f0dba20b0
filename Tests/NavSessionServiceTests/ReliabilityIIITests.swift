import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Every way in obeys the same authority and bounds (Docs/reliability.md, "Numbers from input" and Docs/guards.md,
/// "Whose authority a change carries"): one call cannot crash the daemon, a batch run later cannot do what its
/// author could not, a batch whose effect cannot happen fails, and a repeated failure is logged a few times only.
@Suite struct ReliabilityIIITests {
    static let prevented = "org.navsession.Error.Prevented"

    func call(_ bus: Bus, _ path: String, _ member: String, _ arguments: [Value]) async throws -> [Value] {
        try await bus.call(
            destination: try BusName(DaemonFixture.name), path: try ObjectPath(path),
            interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName(member),
            arguments: arguments, timeout: .seconds(30))
    }

    /// A logged-in window with an editor sheet the fixture's connection protects: the window and the editor's id.
    func protectedEditor(_ fixture: DaemonFixture) async throws -> (window: String, editor: UInt64) {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "Present", [.string("sheet"), .string("editor"), .params(["id": "1"])])
        let editor = try await fixture.modelID(window, where: "screen", is: "editor")
        _ = try await fixture.window(window, "Protect", [.uint64(editor), .string("unsaved text"), .string("")])
        return (window, editor)
    }

    /// The window's protection marks (the `Protected` property, decoded).
    func marks(_ fixture: DaemonFixture, _ window: String) async throws -> [[String: Any]] {
        let text = try #require(try await fixture.windowProperty(window, "Protected").string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    // MARK: One call must not crash the daemon

    @Test(arguments: [UInt64.max, UInt64(Int64.max), UInt64(1) << 63, UInt64(1) << 53 + 1])
    func scheduleWithAHugeDelayIsLimitsExceededAndTheDaemonStillAnswers(_ afterMs: UInt64) async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let error = await fixture.error {
                try await fixture.window(window, "Schedule", [.string(#"[{"command":"goBack"}]"#), .uint64(afterMs)])
            }
            #expect(error?.name.rawValue == "org.freedesktop.DBus.Error.LimitsExceeded", "\(String(describing: error))")
            #expect(try await fixture.version(window) == 0)
        }
    }

    @Test(arguments: ["9223372036854775807", "18446744073709551615", "1e300", "-1", "0.5"])
    func aScheduleCommandWithAnExtremeAfterMsIsRefusedPrecisely(_ number: String) async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let batch = #"[{"command":"schedule","afterMs":"# + number + #","commands":[{"command":"goBack"}]}]"#
            let result = try await fixture.gdbus(window, "Apply", [batch, "{}"])
            #expect(result.status != 0, "\(result)")
            #expect(
                result.stderr.contains("LimitsExceeded") || result.stderr.contains("afterMs must be an integer"), "\(result)")
            #expect(!result.stderr.contains("not valid JSON"), "\(result)")
            #expect(try await fixture.version(window) == 0)
        }
    }

    /// Every numeric argument of every Session1/Window1 method and every integer key of every batch command, driven
    /// with 0, −1, 2^31, 2^53+1, 2^63−1, 2^64−1, 1e300 and NaN-like strings by `scripts/numeric-extremes` (Python Gio):
    /// no internal fault, no lost reply, the daemon answers after every call.
    @Test func everyNumericArgumentTakesTheExtremesWithoutAFaultOrALostReply() async throws {
        try await DaemonFixture.with { fixture in
            let script = PrivateBus.repositoryRoot.appendingPathComponent("scripts/numeric-extremes").path
            let result = try await fixture.run("/usr/bin/python3", [script], timeout: .seconds(300))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("checked "), "\(result)")
            #expect(try await fixture.session("ListWindows").isEmpty == false)
        }
    }

    // MARK: A batch run later acts with its author's authority

    @Test func aBatchScheduledByAnotherClientCannotRemoveAMarkItDoesNotOwn() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            let effects = try await fixture.signals(
                path: setup.window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            let other = try await fixture.connect()
            let batch = #"[{"command":"unprotect","model":\#(setup.editor)},{"command":"dismissAll"}]"#
            _ = try await call(other, setup.window, "Schedule", [.string(batch), .uint64(50)])
            let failed = try await first(effects, timeout: .seconds(30)) { $0.arguments.first == .string("scheduledFailed") }
            #expect("\(failed.arguments)".contains(Self.prevented), "\(failed.arguments)")
            #expect(try await fixture.modelID(setup.window, where: "screen", is: "editor") == setup.editor)
            #expect(try await marks(fixture, setup.window).count == 1)
            await other.close()
        }
    }

    @Test func aScheduledProtectIsOwnedByItsAuthorWhoCanRemoveIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Changed")
            let author = try await fixture.connect()
            let name = try #require(await author.uniqueName?.rawValue)
            _ = try await call(author, window, "Schedule", [.string(#"[{"command":"protect","reason":"draft"}]"#), .uint64(20)])
            _ = try await first(changes, timeout: .seconds(30)) { ($0.arguments.dropFirst(2).first?.string ?? "").contains("scheduled") }
            let owners = try await marks(fixture, window).map { $0["owner"] as? String }
            #expect(owners == [name], "\(owners)")
            // Another client cannot remove it; its author can.
            let model = try #require(try await marks(fixture, window).first?["model"] as? Int)
            let refused = await fixture.error { try await fixture.window(window, "Unprotect", [.uint64(UInt64(model))]) }
            #expect(refused?.name.rawValue == Self.prevented)
            _ = try await call(author, window, "Unprotect", [.uint64(UInt64(model))])
            #expect(try await marks(fixture, window).isEmpty)
            await author.close()
        }
    }

    @Test func aScheduledProtectWhoseAuthorLeftIsNeverMade() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let effects = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            let author = try await fixture.connect()
            _ = try await call(author, window, "Schedule", [.string(#"[{"command":"protect","reason":"draft"}]"#), .uint64(600_000)])
            await author.close()
            let dropped = try await first(effects, timeout: .seconds(30)) { $0.arguments.first == .string("scheduledFailed") }
            #expect("\(dropped.arguments)".contains("left the bus"), "\(dropped.arguments)")
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            #expect(!state.contains("\"scheduled\":[{"), "\(state)")
            #expect(try await marks(fixture, window).isEmpty)
            // And the window closes: no mark without an owner holds it.
            _ = try await fixture.session("DismissWindow", [try .path(window)])
        }
    }

    /// The author leaves while the daemon is down: the restarted daemon learns it from the bus (no departure signal
    /// was seen) and drops the batch, where it once ran it at the deadline for a share of the gone name's own — a
    /// mark with no owner on the bus, over its process's mark share.
    @Test func aScheduledProtectWhoseAuthorLeftWhileTheDaemonWasDownIsNeverMade() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let author = try await fixture.connect()
            _ = try await call(author, window, "Schedule", [.string(#"[{"command":"protect","reason":"draft"}]"#), .uint64(4_000)])
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            await author.close()
            let effects = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            try await fixture.relaunch()
            let dropped = try await first(effects, timeout: .seconds(30)) { $0.arguments.first == .string("scheduledFailed") }
            #expect("\(dropped.arguments)".contains("left the bus"), "\(dropped.arguments)")
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            #expect(!state.contains("\"scheduled\":[{"), "\(state)")
            #expect(try await marks(fixture, window).isEmpty)
        }
    }

    /// A process at its mark share schedules one more `protect`, the daemon is killed, and a client of another
    /// process that held a mark leaves meanwhile. The restarted daemon handles that departure (a change) only after
    /// it has joined every restored owner to its process, and runs no scheduled batch before: the batch, overdue,
    /// is refused for the share at its first run — once it ran while the owners were still counted one connection
    /// each, making a 129th mark (found by the authority fuzz).
    @Test func anOverdueScheduledProtectIsCheckedAgainstTheWholeProcessAfterARestart() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let about = Array(repeating: #"{"screen":"about"}"#, count: 130).joined(separator: ",")
            _ = try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"stackAppend","models":[\#(about)]}]"#)])
            let ids = try await fixture.models(window).filter { $0["screen"] as? String == "about" }.compactMap { $0["id"] as? Int }
            try #require(ids.count == 130)
            // Another process holds one mark, and leaves while the daemon is down.
            let other = try await NonReadingClient.python(Self.protectAndWait, [fixture.address, window, "\(ids[0])"])
            // This process: 128 marks on one connection (its share), a protect scheduled on another.
            let holder = try await fixture.connect()
            let protects = ids[1...128].map { #"{"command":"protect","model":\#($0),"reason":"held"}"# }.joined(separator: ",")
            _ = try await holder.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(DaemonFixture.session),
                interface: try InterfaceName(DaemonFixture.sessionInterface), member: try MemberName("Apply"),
                arguments: [try .path(window), .string("[\(protects)]")], timeout: .seconds(30))
            let author = try await fixture.connect()
            _ = try await call(
                author, window, "Schedule", [.string(#"[{"command":"protect","model":\#(ids[129]),"reason":"late"}]"#), .uint64(3000)])
            #expect(try await marks(fixture, window).count == 129)
            // The batch's deadline: on a machine so busy that the steps since it was scheduled took longer than its
            // delay, it may run before the kill — refused then, while the daemon knew every process — and what
            // follows has nothing to check but the marks.
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            let scheduled = (try json(state) as? [String: Any])?["scheduled"] as? [[String: Any]]
            let deadline = (scheduled?.first?["deadline"] as? NSNumber)?.int64Value
            let killed = Int64(Date().timeIntervalSince1970 * 1000)
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            let waiting = deadline.flatMap { $0 > killed ? $0 : nil }
            await other.stop()
            let effects = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            if let deadline = waiting {
                // Past the deadline while the daemon is down: the batch is overdue (its rule: run) at the restart.
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                if deadline >= now { try await Task.sleep(for: .milliseconds(deadline - now + 200)) }
            }
            try await fixture.relaunch()
            if waiting != nil {
                let failed = try await first(effects, timeout: .seconds(30)) { $0.arguments.first == .string("scheduledFailed") }
                #expect("\(failed.arguments)".contains("per-client mark share"), "\(failed.arguments)")
            }
            let owners = try await marks(fixture, window).compactMap { $0["reason"] as? String }
            #expect(owners.count == 128 && !owners.contains("late"), "\(owners.count) marks: \(Set(owners))")
            await holder.close()
            await author.close()
        }
    }

    /// A blocking dbus-python client of its own process: `Protect(model)` on a window, then it stays on the bus until
    /// its standard input closes.
    static let protectAndWait = #"""
        import sys, dbus
        bus = dbus.bus.BusConnection(sys.argv[1])
        window = bus.get_object("org.navsession.Demo", sys.argv[2])
        window.Protect(dbus.UInt64(int(sys.argv[3])), "other", "", dbus_interface="org.navsession.Window1")
        print("sent", flush=True)
        sys.stdin.read()
        """#

    @Test func aScheduledBatchRecordsItsAuthorInTheState() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let author = try await fixture.connect()
            let name = try #require(await author.uniqueName?.rawValue)
            _ = try await call(
                author, window, "Schedule", [.string(#"[{"command":"goBack"}]"#), .uint64(600_000)])
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            #expect(state.contains(#""author":"\#(name)""#), "\(state)")
            await author.close()
        }
    }

    // MARK: Clients that do not read lose their own service

    /// Sixty clients follow one model and never read; a driver makes 8 000 changes of it. Another client's small
    /// calls on another window are all answered (liveness: each within 30 s, where they once got no answer for
    /// minutes), and the followers lose their follows.
    @Test func followersThatNeverReadLoseTheirFollowsAndOthersAreServed() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("waiting")
            let model = try await fixture.modelID(window, where: "screen", is: "waiting")
            var followers: [NonReadingClient] = []
            for _ in 0..<60 {
                followers.append(try await NonReadingClient.start(
                    address: fixture.address, destination: DaemonFixture.name, path: window,
                    interface: "org.navsession.Window1", member: "FollowModel", count: 1, argument: model))
            }
            let other = try await fixture.openWindow("waiting")
            let probe = try await fixture.connect()
            let value = String(repeating: "v", count: 1000)
            for change in 0..<8000 {
                _ = try await fixture.window(
                    window, "SetParams", [.uint64(model), .params(["reason": "\(change % 2)\(value)"]), .boolean(false)])
                if change % 200 == 0 {
                    _ = try await probe.call(
                        destination: try BusName(DaemonFixture.name), path: try ObjectPath(other),
                        interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("GetState"),
                        timeout: .seconds(30))
                }
            }
            #expect(fixture.output.contains("a follower does not read its ModelChanged signals"), "\(fixture.output.suffix(2000))")
            for follower in followers { await follower.stop() }
            await probe.close()
        }
    }

    // MARK: One process has one share

    /// A process with three connections (dbus-python, each its own `BusConnection`) fills what it may create: the
    /// three share one content share, so another process's push and `OpenURL` still go through.
    @Test func aProcessWithManyConnectionsHasOneContentShare() async throws {
        try await DaemonFixture.with { fixture in
            let greedy = #"""
                import os, dbus
                present = '{"command":"present","presentation":{"kind":"sheet","model":{"screen":"detail","params":{"id":"%s"}}}}' % ("x" * 4000)
                batch = "[" + ",".join([present] * 55) + "]"
                for connection in range(3):
                    bus = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
                    session = bus.get_object("org.navsession.Demo", "/org/navsession/Session1")
                    applied = 0
                    try:
                        for _ in range(8):
                            path = session.OpenWindow("waiting", dbus.Dictionary({}, signature="ss"), dbus_interface="org.navsession.Session1")
                            window = dbus.Interface(bus.get_object("org.navsession.Demo", path), "org.navsession.Window1")
                            for _ in range(8):
                                window.Apply(batch, dbus.Dictionary({}, signature="ss"))
                                applied += 1
                    except dbus.DBusException as error:
                        print(connection, applied, error.get_dbus_message())
                """#
            let result = try await fixture.run("/usr/bin/python3", ["-c", greedy], timeout: .seconds(300))
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 3 && lines.allSatisfy { $0.contains("per-client content share") }, "\(result)")
            // The second and third connections had nothing left of their process's share.
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("1 0 ") || $0.hasPrefix("2 0 ") }, "\(result)")
            let other = try await fixture.openWindow("waiting")
            let pushed = try await fixture.gdbus(
                other, "Present", ["sheet", "detail", "{'id': '\(String(repeating: "y", count: 4000))'}"])
            #expect(pushed.status == 0, "\(pushed)")
            let url = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                          "--method", "org.navsession.Session1.OpenURL", "navsession-demo://detail/42"])
            #expect(url.status == 0, "\(url)")
        }
    }

    /// 66 connections of one process (this test's) follow one model each: together they may follow 64.
    @Test func aProcessWithManyConnectionsHasOneFollowShare() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow("waiting")
            let model = try await fixture.modelID(window, where: "screen", is: "waiting")
            var connections: [Bus] = []
            var refused = 0
            for _ in 0..<66 {
                let bus = try await fixture.connect()
                connections.append(bus)
                do {
                    _ = try await call(bus, window, "FollowModel", [.uint64(model)])
                } catch let error as BusError where error.name.rawValue == "org.freedesktop.DBus.Error.LimitsExceeded" {
                    refused += 1
                }
            }
            #expect(refused >= 2, "\(refused) of 66 follows refused")
            for bus in connections { await bus.close() }
        }
    }

    // MARK: History is bounded in bytes

    /// Forty changes of about 110 KB each (push/pop pairs that leave the graph as it was): the window's history
    /// keeps at most `SessionLimits.maxHistoryBytes` (2 MiB) of them, oldest folded first, and the oldest state it
    /// lists can still be rebuilt; the saved state stays small.
    @Test func aWindowsHistoryIsBoundedInBytes() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let id = String(repeating: "h", count: 1000)
            let pair = #"{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"\#(id)"}}]},{"command":"stackDropLast"}"#
            let batch = "[" + Array(repeating: pair, count: 100).joined(separator: ",") + "]"
            for _ in 0..<40 { _ = try await fixture.window(window, "Apply", [.string(batch), .noParams]) }
            let history = try #require(try await fixture.window(window, "GetHistory").first?.string)
            #expect(history.utf8.count < 3 << 20, "GetHistory is \(history.utf8.count) bytes")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [[String: Any]])
            #expect(entries.count < 40 && entries.count > 1, "\(entries.count) entries")
            let oldest = try #require(entries.first?["version"] as? Int)
            let state = try #require(try await fixture.window(window, "GetStateAt", [.uint64(UInt64(oldest))]).first?.string)
            #expect(state.contains(#""version":\#(oldest)"#))
            // A clean stop writes the whole session (its windows' histories included) to state.json.
            try await fixture.stopDaemon()
            let saved = try FileManager.default.attributesOfItem(atPath: fixture.statePath + "/state.json")[.size] as? Int ?? 0
            #expect(saved < 8 << 20, "state.json is \(saved) bytes")
        }
    }

    // MARK: Closed windows are bounded in bytes

    /// Six windows of about 2 MiB each, dismissed: the recently closed list keeps at most
    /// `SessionLimits.maxClosedWindowBytes` (8 MiB) of them, newest first, and `ListClosedWindows` answers.
    /// Fills a window with about 2 MB of sheets and closes it, as its own process (blocking dbus-python): each
    /// window's history is charged to the process that made it, so six windows stay within every client's share.
    static let closingClient = #"""
        import dbus
        bus = dbus.SessionBus()
        session = dbus.Interface(bus.get_object("org.navsession.Demo", "/org/navsession/Session1"), "org.navsession.Session1")
        path = session.OpenWindow("waiting", dbus.Dictionary({}, signature="ss"))
        window = dbus.Interface(bus.get_object("org.navsession.Demo", path), "org.navsession.Window1")
        present = '{"command":"present","presentation":{"kind":"sheet","model":{"screen":"detail","params":{"id":"%s"}}}}'
        batch = "[" + ",".join([present % ("c" * 4000)] * 55) + "]"
        for _ in range(9):
            window.Apply(batch, dbus.Dictionary({}, signature="ss"), timeout=120)
        session.DismissWindow(dbus.ObjectPath(path), timeout=120)
        print(path.rsplit("/", 1)[-1])
        """#

    @Test func recentlyClosedWindowsAreBoundedInBytes() async throws {
        try await DaemonFixture.with { fixture in
            var closed: [String] = []
            for _ in 0..<6 {
                let result = try await fixture.run("/usr/bin/python3", ["-c", Self.closingClient], timeout: .seconds(600))
                #expect(result.status == 0, "\(result)")
                closed.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            let list = try #require(try await fixture.session("ListClosedWindows").first?.string)
            #expect(list.utf8.count < 9 << 20, "ListClosedWindows is \(list.utf8.count) bytes")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])
            let ids = entries.compactMap { $0["id"] as? String }
            #expect(ids.count >= 2 && ids.count < 6, "\(ids)")
            #expect(ids == Array(closed.reversed().prefix(ids.count)), "newest first: \(ids), closed \(closed)")
        }
    }

    // MARK: A well-behaved client is served

    /// dbus-python without a main loop: it reads every reply but never dispatches the daemon's `Peer.Ping`.
    static let blockingClient = #"""
        import sys, dbus
        bus = dbus.SessionBus()
        session = bus.get_object("org.navsession.Demo", "/org/navsession/Session1")
        path = session.OpenWindow("waiting", dbus.Dictionary({}, signature="ss"), dbus_interface="org.navsession.Session1")
        window = dbus.Interface(bus.get_object("org.navsession.Demo", path), "org.navsession.Window1")
        present = '{"command":"present","presentation":{"kind":"sheet","model":{"screen":"detail","params":{"id":"%s"}}}}'
        for round in range(4):
            batch = "[" + ",".join(present % (str(round) * 4000) for _ in range(50)) + "]"
            window.Apply(batch, dbus.Dictionary({}, signature="ss"))
        total = calls = 0
        while total < int(sys.argv[1]):
            total += len(window.GetState(timeout=60))
            calls += 1
        print(f"{calls} replies, {total} bytes, all answered")
        """#

    @Test func aBlockingClientThatReadsItsRepliesIsServedAHundredMegabytes() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.run(
                "/usr/bin/python3", ["-c", Self.blockingClient, String(100 << 20)], timeout: .seconds(600))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("all answered"), "\(result)")
        }
    }

    // MARK: No silent failure

    @Test func dismissWindowOfAProtectedWindowInABatchFailsTheBatch() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            let version = try await fixture.version(setup.window)
            let result = try await fixture.gdbus(setup.window, "Apply", [#"[{"command":"dismissWindow"}]"#, "{}"])
            #expect(result.status != 0 && result.stderr.contains(Self.prevented), "\(result)")
            #expect(try await fixture.version(setup.window) == version)
            let windows = try await fixture.session("ListWindows")
            #expect("\(windows)".contains(setup.window))
        }
    }

    @Test func scheduledBatchesFailingAtTheirDeadlineAreLoggedAFewTimesOnly() async throws {
        try await DaemonFixture.with { fixture in
            let effects = try await fixture.signals(
                namespace: DaemonFixture.session, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Effect")
            // A window's scheduled batches are bounded (GraphLimits.maxScheduled): several windows, 40 each.
            var windows: [String] = []
            for _ in 0..<5 { windows.append(try await fixture.openWindow("waiting")) }
            let failing = #"{"command":"schedule","afterMs":300,"commands":[{"command":"goBack"}]}"#
            for window in windows {
                let batch = "[" + Array(repeating: failing, count: 40).joined(separator: ",") + "]"
                _ = try await fixture.window(window, "Apply", [.string(batch), .noParams])
            }
            let failures = try await take(200, of: effects, timeout: .seconds(60))
            #expect(failures.allSatisfy { $0.arguments.first == .string("scheduledFailed") })
            let lines = fixture.output.split(separator: "\n").filter { $0.contains("a scheduled batch failed at its deadline") }
            // Each line names its own window and id: the first 10 are written, then the 100th.
            #expect(lines.count == 11, "\(lines.count) lines: \(lines.prefix(12))")
            #expect(lines.last?.hasSuffix("(89 more like this suppressed)") == true, "\(lines.last ?? "")")
        }
    }
}
