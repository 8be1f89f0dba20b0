import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Testing

/// Restore by reason, the crash-loop guard and instances, through the bus on the demo manifest
/// with a `restore` declaration.
@Suite struct RestoreReasonBusTests {
    /// The demo with a policy for every reason.
    static let policies = NavSessionTestDaemon.Configuration.Manifest.json(Manifest.demoJSON.replacingOccurrences(
        of: #""format": 1,"#,
        with: #""format": 1, "restore": {"launch": "withoutPresentations", "recover": "entryStates", "restore": "everything", "pristine": "nothing"},"#))

    /// The demo with a crash-loop guard of 3 unclean stops within 10 minutes.
    static let crashLoop = NavSessionTestDaemon.Configuration.Manifest.json(Manifest.demoJSON.replacingOccurrences(
        of: #""format": 1,"#, with: #""format": 1, "restore": {"crashLoop": {"uncleanStops": 3, "withinSeconds": 600}},"#))

    /// Session1's `name` property read with dbus-send.
    func sessionProperty(_ fixture: DaemonFixture, _ name: String) async throws -> String {
        let result = try await fixture.run(
            "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", DaemonFixture.session,
                          "org.freedesktop.DBus.Properties.Get", "string:org.navsession.Session1", "string:\(name)"])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "variant", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    func windows(_ fixture: DaemonFixture) async throws -> [String] {
        (try await fixture.session("ListWindows").first?.arrayElements ?? []).compactMap { $0.objectPath?.rawValue }
    }

    func routeCount(_ fixture: DaemonFixture, _ window: String) async throws -> Int {
        (try json(try await fixture.window(window, "GetRoutes").first?.string) as? [Any])?.count ?? -1
    }

    @Test func eachRestoreReasonBringsBackWhatTheManifestDeclares() async throws {
        try await DaemonFixture.with(manifest: Self.policies) { fixture in
            // pristine: nothing was saved.
            #expect(try await sessionProperty(fixture, "RestoreReason") == "pristine")
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "Present", [.string("cover"), .string("about"), .noParams])
            #expect(try await routeCount(fixture, window) == 2)

            // launch (a clean stop): withoutPresentations keeps the push, dismisses the cover.
            try await fixture.restart()
            #expect(try await sessionProperty(fixture, "RestoreReason") == "launch")
            #expect(try await windows(fixture) == [window])
            #expect(try await routeCount(fixture, window) == 1)

            // recover (SIGKILL): entryStates opens the scene afresh (a new window number, at its entry screen).
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await sessionProperty(fixture, "RestoreReason") == "recover")
            let recovered = try await windows(fixture)
            #expect(recovered.count == 1 && recovered != [window], "\(recovered)")
            let fresh = try #require(recovered.first)
            #expect(try await fixture.windowProperty(fresh, "ActiveScreen") == .string("login"))
            try await fixture.logIn(fresh)
            _ = try await fixture.window(fresh, "Present", [.string("cover"), .string("about"), .noParams])

            // restore (told): everything, exactly.
            try await fixture.restart(["--restore-reason", "restore"])
            #expect(try await sessionProperty(fixture, "RestoreReason") == "restore")
            #expect(try await windows(fixture) == [fresh])
            #expect(try await routeCount(fixture, fresh) == 1)

            // pristine (told): nothing comes back.
            try await fixture.restart(["--restore-reason", "pristine"])
            #expect(try await sessionProperty(fixture, "RestoreReason") == "pristine")
            #expect(try await windows(fixture) == [])
        }
    }

    @Test func crashLoopStartsCleanAtTheThresholdWithTheOldStateSetAside() async throws {
        try await DaemonFixture.with(manifest: Self.crashLoop) { fixture in
            let window = try await fixture.openWindow()
            #expect(try await sessionProperty(fixture, "RestoreSetAside") == "")
            // Unclean stops 1 and 2: restored every time.
            for _ in 1...2 {
                try await fixture.kill()
                try await fixture.relaunch()
                #expect(try await sessionProperty(fixture, "RestoreReason") == "recover")
                #expect(try await windows(fixture) == [window])
                #expect(try await sessionProperty(fixture, "RestoreSetAside") == "")
            }
            // Unclean stop 3 within the window: the daemon starts clean, the old state set aside next to it.
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await windows(fixture) == [])
            let setAside = try await sessionProperty(fixture, "RestoreSetAside")
            #expect(setAside.hasPrefix(fixture.statePath + ".set-aside-"), "\(setAside)")
            #expect(FileManager.default.fileExists(atPath: setAside + "/state.json"))
            #expect(fixture.output.contains("crash loop"), "\(fixture.output)")
            // Numbers go on above the set-aside state's: a new window is not window 1 again.
            let next = try await fixture.openWindow()
            #expect(next != window)
            // A clean stop ends the loop: the next start is a launch with nothing set aside.
            try await fixture.restart()
            #expect(try await sessionProperty(fixture, "RestoreReason") == "launch")
            #expect(try await sessionProperty(fixture, "RestoreSetAside") == "")
            #expect(try await windows(fixture) == [next])
        }
    }

    @Test func twoInstancesKeepSeparateStates() async throws {
        try await DaemonFixture.with { fixture in
            let own = try await fixture.openWindow()
            try await fixture.restart(["--instance", "alpha"])
            #expect(try await sessionProperty(fixture, "Instance") == "alpha")
            #expect(try await windows(fixture) == [])
            _ = try await fixture.openWindow("waiting")
            _ = try await fixture.openWindow("waiting")
            try await fixture.restart(["--instance", "beta"])
            #expect(try await windows(fixture) == [])
            try await fixture.restart(["--instance", "alpha"])
            #expect(try await windows(fixture).count == 2)
            #expect(FileManager.default.fileExists(atPath: fixture.statePath + "@alpha/state.json"))
            // Without --instance: the application's own state, where it always was.
            try await fixture.restart()
            #expect(try await sessionProperty(fixture, "Instance") == "")
            #expect(try await windows(fixture) == [own])
        }
    }

    @Test func anInvalidInstanceIdIsRefusedAtStart() async throws {
        try await DaemonFixture.with { fixture in
            try await fixture.stopDaemon()
            let outcome = try await fixture.launchAndWait(["--instance", "../elsewhere"])
            #expect(outcome != .serving)
            #expect(fixture.output.contains("invalid --instance"), "\(fixture.output)")
        }
    }
}
