import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// A window's history through the bus on the demo: GetHistory with dbus-send, GetStateAt with gdbus and its error,
/// the history across SIGKILL, and the README tour recorded, exported and replayed on a fresh daemon.
@Suite(.serialized) struct HistoryBusTests {
    static func history(_ fixture: DaemonFixture, _ window: String) async throws -> [[String: Any]] {
        let text = try #require(try await fixture.window(window, "GetHistory").first?.string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func getHistoryWithDbusSendListsTheChangesOldestFirst() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let result = try await fixture.dbusSend(window, "GetHistory")
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#"{"version":1,"time":"#), "\(result.stdout)")
            #expect(result.stdout.contains(#""activeScreen":"detail"}]"#), "\(result.stdout)")
        }
    }

    @Test func getStateAtWithGdbusGivesTheEarlierStateAndVersionNotKeptOutsideTheRange() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let earlier = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.GetStateAt", "uint64 1"])
            #expect(earlier.status == 0, "\(earlier)")
            #expect(earlier.stdout.contains(#"\"version\":1"#) || earlier.stdout.contains(#""version":1"#), "\(earlier.stdout)")
            #expect(!earlier.stdout.contains("detail"), "\(earlier.stdout)")
            #expect(try await fixture.version(window) == 2)
            let outside = try await fixture.dbusSend(window, "GetStateAt", ["uint64:9"])
            #expect(outside.status != 0)
            #expect(outside.stderr.contains("org.navsession.Error.VersionNotKept"), "\(outside)")
            #expect(outside.stderr.contains("versions 0 to 2"), "\(outside)")
        }
    }

    @Test func theHistorySurvivesSIGKILLAndRestart() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let before = try await Self.history(fixture, window)
            let stateAtOne = try await fixture.window(window, "GetStateAt", [.uint64(1)]).first?.string
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            try await fixture.relaunch()
            let after = try await Self.history(fixture, window)
            #expect(after.map { $0["version"] as? Int } == before.map { $0["version"] as? Int })
            #expect(after.map { $0["time"] as? Int } == before.map { $0["time"] as? Int })
            #expect(after.map { $0["activeScreen"] as? String } == ["home", "detail"])
            #expect(try await fixture.window(window, "GetStateAt", [.uint64(1)]).first?.string == stateAtOne)
        }
    }

    @Test func theReadmeTourRecordedExportedAndReplayedOnAFreshDaemonIsIdentical() async throws {
        var script = try ReadmeTourTests.tour()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navtrace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        // Its own files (the README tour's suite may run at the same time), and the trace exported before the stop.
        script = script.replacing("/tmp/navtour", with: "\(dir)/navtour")
        let stop = "kill %1 %2"
        #expect(script.contains(stop))
        script = script.replacing(stop, with: """
            ctl trace export 1 > \(dir)/trace.json
            kill %1 %2; wait
            exec 3< <(exec .build/debug/navsessiond --private-bus 2> \(dir)/fresh.log); fresh=$!
            read -r address <&3 || { cat \(dir)/fresh.log; exit 1; }   # the line comes once the name is owned
            export "$address"
            ctl trace replay \(dir)/trace.json; status=$?
            kill $fresh; exit $status
            """)
        let file = directory.appendingPathComponent("tour.sh")
        try ("swift() { :; }\ncd '\(PrivateBus.repositoryRoot.path)'\n" + script).write(to: file, atomically: true, encoding: .utf8)
        let result = try await ToolRunner.run("bash", [file.path], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("identical: 1 window, 9 changes"), "\(result)")
    }

    /// A mark's owner is the recording client's unique name; the replaying client has another, and stands for it.
    @Test func aTraceWithAMarkReplaysIdenticallyUnderTheReplayingClientsName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navtrace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = directory.path
        let script = """
            cd '\(PrivateBus.repositoryRoot.path)'
            ctl() { .build/debug/navsessionctl "$@"; }
            exec 3< <(exec .build/debug/navsessiond --private-bus 2> \(dir)/first.log); first=$!
            read -r address <&3 || { cat \(dir)/first.log; exit 1; }
            export "$address"
            ctl open-window main > /dev/null || exit 1
            ctl exec 1 apply '[{"command":"protect","reason":"draft"},{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"}}]}]' > /dev/null || exit 1
            # The mark goes when the bus tells the daemon its owner left, some time after that navsessionctl exits.
            ctl wait 1 --version 2 --timeout 60 2> /dev/null > /dev/null || exit 1
            ctl trace export 1 > \(dir)/trace.json || exit 1
            kill $first; wait $first
            exec 4< <(exec .build/debug/navsessiond --private-bus 2> \(dir)/fresh.log); fresh=$!
            read -r address <&4 || { cat \(dir)/fresh.log; exit 1; }
            export "$address"
            ctl trace replay \(dir)/trace.json; status=$?
            kill $fresh; exit $status
            """
        let file = directory.appendingPathComponent("replay.sh")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let result = try await ToolRunner.run("bash", [file.path], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(90))
        #expect(result.status == 0, "\(result)")
        // The mark, and its removal when its owner (the one-shot navsessionctl) left: two changes.
        #expect(result.stdout.contains("identical: 1 window, 2 changes"), "\(result)")
        let trace = try String(contentsOfFile: "\(dir)/trace.json", encoding: .utf8)
        #expect(trace.contains(#""owner":":"#), "the recording names its client: \(trace.prefix(400))")
    }
}
