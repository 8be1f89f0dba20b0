import Foundation
import Logging
import NavigationCore
import Testing

@testable import NavigationSession

/// Restore by reason, the crash-loop guard and instance ids, on the session and the manifest.
struct RestoreReasonTests {
    /// The demo manifest with `restore` set to `json`.
    static func manifest(restore json: String) throws(ManifestError) -> Manifest {
        try Manifest(json: Manifest.demoJSON.replacingOccurrences(of: #""format": 1,"#, with: #""format": 1, "restore": \#(json),"#))
    }

    static func session(_ directory: String, _ manifest: Manifest, reason: RestoreReason? = nil) throws -> Session {
        try Session(manifest: manifest, store: try SessionStore(directory: directory), logger: Logger(label: "test"), restoreReason: reason)
    }

    /// The manifest error's description for `restore` set to `json`, or nil when it loads.
    static func error(_ json: String) -> String? {
        do {
            _ = try manifest(restore: json)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theManifestReadsAPolicyPerReasonAndTheGuard() throws {
        let manifest = try Self.manifest(restore: #"{"recover":"withoutPresentations","pristine":"nothing","crashLoop":{"uncleanStops":2}}"#)
        #expect(manifest.restore.policy(for: .recover) == .withoutPresentations)
        #expect(manifest.restore.policy(for: .pristine) == .nothing)
        #expect(manifest.restore.policy(for: .launch) == .everything)
        #expect(manifest.restore.crashLoop == .init(uncleanStops: 2, withinSeconds: 60))
        #expect(try Manifest.demo().restore == RestoreDeclaration())
    }

    @Test func anUnknownPolicyIsAnErrorNamingTheReason() {
        let message = Self.error(#"{"recover":"some"}"#) ?? ""
        #expect(message.hasPrefix("restore.recover: unknown restore policy 'some'"), "\(message)")
    }

    @Test func anUnknownRestoreKeyIsAnError() {
        let message = Self.error(#"{"relaunch":"everything"}"#) ?? ""
        #expect(message.contains("restore") && message.contains("relaunch"), "\(message)")
        let inner = Self.error(#"{"crashLoop":{"stops":3}}"#) ?? ""
        #expect(inner.contains("stops"), "\(inner)")
    }

    @Test func crashLoopBoundsAreChecked() {
        #expect(Self.error(#"{"crashLoop":{"uncleanStops":0}}"#)?.hasPrefix("restore.crashLoop.uncleanStops: uncleanStops must be 1…100") == true)
        #expect(Self.error(#"{"crashLoop":{"withinSeconds":100000}}"#)?.hasPrefix("restore.crashLoop.withinSeconds:") == true)
        #expect(Self.error(#"{"launch":3}"#)?.hasPrefix("restore.launch:") == true)
    }

    @Test func theReasonFollowsHowTheLastRunEnded() throws {
        let directory = temporaryDirectory()
        let first = try Self.session(directory, try Manifest.demo())
        #expect(first.restoreReason == .pristine)
        _ = try first.openWindow(scene: "waiting")
        try first.close()
        first.store?.abandonForTesting()
        let second = try Self.session(directory, try Manifest.demo())
        #expect(second.restoreReason == .launch)
        second.store?.abandonForTesting()  // killed: no clean close
        let third = try Self.session(directory, try Manifest.demo())
        #expect(third.restoreReason == .recover)
        third.store?.abandonForTesting()
        let told = try Self.session(directory, try Manifest.demo(), reason: .restore)
        #expect(told.restoreReason == .restore)
        #expect(told.windows.count == 1)
    }

    @Test func withoutPresentationsDismissesWhatTheActiveBranchPresented() throws {
        let directory = temporaryDirectory()
        let manifest = try Self.manifest(restore: #"{"launch":"withoutPresentations"}"#)
        let session = try Self.session(directory, manifest)
        let main = try loggedInMain(session)
        try session.execute(window: main, command: .stackAppend([.init(.screen("detail", params: ["id": "1"]))]))
        try session.execute(window: main, command: .present(.sheet(.screen("about"))))
        try session.close()
        session.store?.abandonForTesting()
        let restored = try Self.session(directory, manifest)
        #expect(try restored.window(main).activeScreens.last == "detail")
    }

    @Test func nothingClosesEveryWindowAndEntryStatesOpensTheScenesAfresh() throws {
        let directory = temporaryDirectory()
        let manifest = try Self.manifest(restore: #"{"recover":"entryStates","restore":"nothing"}"#)
        let session = try Self.session(directory, manifest)
        let main = try loggedInMain(session)
        session.store?.abandonForTesting()
        let recovered = try Self.session(directory, manifest)
        #expect(recovered.windows.map(\.scene) == ["main"])
        let fresh = try #require(recovered.windows.first)
        #expect(fresh.number != main && fresh.activeScreens.last == "login")
        recovered.store?.abandonForTesting()
        let restored = try Self.session(directory, manifest, reason: .restore)
        #expect(restored.windows.isEmpty)
    }

    @Test func theCrashLoopGuardSetsTheStateAsideAtItsThreshold() throws {
        let directory = temporaryDirectory()
        let manifest = try Self.manifest(restore: #"{"crashLoop":{"uncleanStops":2,"withinSeconds":600}}"#)
        let session = try Self.session(directory, manifest)
        let window = try #require(session.openWindow(scene: "waiting").window)
        session.store?.abandonForTesting()
        let once = try Self.session(directory, manifest)
        #expect(once.windows.map(\.number) == [window] && once.restoreSetAside == nil)
        once.store?.abandonForTesting()
        let twice = try Self.session(directory, manifest)
        #expect(twice.windows.isEmpty)
        let setAside = try #require(twice.restoreSetAside)
        #expect(setAside.hasPrefix(directory + ".set-aside-"))
        #expect(FileManager.default.fileExists(atPath: setAside + "/" + SessionStore.stateFileName))
        #expect(twice.nextWindowNumber > window)
    }

    @Test func theUncleanStopRecordKeepsAtMostAHundredTimes() throws {
        let directory = temporaryDirectory()
        let store = try SessionStore(directory: directory)
        _ = try store.beginRun(now: 1_000, window: 60)
        let now: Int64 = 2_000
        let planted = (0..<500).map { String(now - 10 + Int64($0 % 10)) }.joined(separator: "\n")
        try Data(planted.utf8).write(to: URL(fileURLWithPath: directory + "/" + SessionStore.uncleanStopsFileName))
        let run = try store.beginRun(now: now, window: 60)
        #expect(run.previous == .unclean)
        #expect(run.recentUncleanStops == 100)
        let lines = try String(contentsOfFile: directory + "/" + SessionStore.uncleanStopsFileName, encoding: .utf8)
        #expect(lines.split(separator: "\n").count == 100)
    }

    @Test func instanceIdsAreLettersDigitsDashAndUnderscore() {
        #expect(InstanceID.problem(with: "work_2-a") == nil)
        #expect(InstanceID.problem(with: "") != nil)
        #expect(InstanceID.problem(with: "../x") != nil)
        #expect(InstanceID.problem(with: "a.b") != nil)
        #expect(InstanceID.problem(with: String(repeating: "a", count: 65)) != nil)
        #expect(InstanceID.directory("/s/org.x.App", instance: "w") == "/s/org.x.App@w")
    }

    @Test func portalReasonCodesMapToReasons() {
        #expect((0...3).map { RestoreReason(portalCode: UInt32($0)) } == [.pristine, .launch, .recover, .restore])
        #expect(RestoreReason(portalCode: 4) == nil)
    }
}
