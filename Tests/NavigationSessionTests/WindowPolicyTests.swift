import Foundation
import NavigationCore
import Testing

@testable import NavigationSession

/// Window policies (Docs/window-policy.md): who may change a window, asked wherever a change comes in, with the
/// authority of the client that caused it; kept across a restart; a scene's default from the manifest.
struct WindowPolicyTests {
    static let setTitle = #"[{"command":"setParams","title":"T"}]"#

    /// A session with a "waiting" window; `:1.1` and `:1.2` are two processes outside a sandbox, `:1.3` a Flatpak app.
    func session(directory: String? = nil) throws -> (Session, WindowNumber) {
        let session = try demoSession(directory: directory)
        session.join(client: ":1.1", process: "pid:101", app: "")
        session.join(client: ":1.2", process: "pid:102", app: "")
        session.join(client: ":1.3", process: "pid:103", app: "org.example.Remote")
        session.join(client: ":1.4", process: "pid:101", app: "")
        return (session, try #require(session.openWindow(scene: "waiting").window))
    }

    func isAccessDenied(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as SessionError {
            return Self.denies(error)
        } catch {
            return false
        }
    }

    /// The message of the InvalidArgs `body` throws; `nil` when it throws nothing or another error.
    static func invalidArgumentsMessage(_ body: () throws(SessionError) -> Void) -> String? {
        do throws(SessionError) {
            try body()
            return nil
        } catch {
            if case .invalidArguments(let message) = error { return message }
            return nil
        }
    }

    /// AccessDenied on the bus: the policy's refusal, from the session or from where every change passes.
    static func denies(_ error: SessionError) -> Bool {
        switch error {
        case .accessDenied, .navigation(.notPermitted), .navigation(.batchCommandFailed(_, .notPermitted)): true
        default: false
        }
    }

    @Test func aPolicyRefusesAnotherClientsChangeAndLetsItsOwnProcessOn() throws {
        let (session, number) = try session()
        try session.setWindowPolicy(window: number, policyJSON: #"{"change":["self"]}"#, client: ":1.1")
        #expect(session.windowsByNumber[number]?.policy?.change == [":1.1"])
        #expect(isAccessDenied { try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.2") })
        try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.1")
        // Another connection of the same process.
        try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.4")
        // The daemon's own changes are no client's.
        try session.apply(window: number, batchJSON: Self.setTitle)
    }

    @Test func aKioskWindowRefusesEveryClientAndItsCloseAndAHostLiftsIt() throws {
        let (session, number) = try session()
        try session.setWindowPolicy(window: number, policyJSON: #"{"change":[]}"#, client: ":1.1")
        #expect(isAccessDenied { try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.1") })
        #expect(isAccessDenied { _ = try session.dismissWindow(number, client: ":1.1") })
        #expect(isAccessDenied { try session.setCloseOnExit(window: number, owner: ":1.2", caller: ":1.2") })
        #expect(isAccessDenied { try session.groupWindows("g", windows: [number], client: ":1.2") })
        #expect(session.windowsByNumber[number] != nil)
        // A sandboxed client may not manage it (manage defaults to host); a host may.
        #expect(isAccessDenied { try session.setWindowPolicy(window: number, policyJSON: "", client: ":1.3") })
        try session.setWindowPolicy(window: number, policyJSON: "", client: ":1.2")
        try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.2")
    }

    /// The policy is asked before anything else: a client that may not change the window hears that, not which share
    /// or bound its batch would exceed, and a move into a kiosk asks no guard of the source window.
    @Test func thePolicyIsAskedBeforeSharesBoundsAndTheOtherWindow() throws {
        let (session, number) = try session()
        let other = try #require(session.openWindow(scene: "waiting").window)
        try session.setWindowPolicy(window: number, policyJSON: #"{"change":[]}"#, client: ":1.1")
        let tooMany = "[" + Array(repeating: #"{"command":"setParams","title":"T"}"#, count: 300).joined(separator: ",") + "]"
        #expect(isAccessDenied { try session.apply(window: number, batchJSON: tooMany, client: ":1.2") })
        let model = try session.window(other).graph.activeModelID
        #expect(isAccessDenied { _ = try session.moveModel(window: other, model: model, to: number, placementJSON: "", client: ":1.2") })
        #expect(session.windowsByNumber[other] != nil)
    }

    @Test func anAppPrincipalMatchesTheSandboxedClientOnly() throws {
        let (session, number) = try session()
        try session.setWindowPolicy(window: number, policyJSON: #"{"change":["app:org.example.Remote"]}"#, client: ":1.1")
        try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.3")
        #expect(isAccessDenied { try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.1") })
        // A client whose sandbox is not known matches neither host nor app.
        session.join(client: ":1.9", process: "uid:1000")
        try session.setWindowPolicy(window: number, policyJSON: #"{"change":["host"]}"#, client: ":1.1")
        #expect(isAccessDenied { try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.9") })
        #expect(isAccessDenied { try session.apply(window: number, batchJSON: Self.setTitle, client: ":1.3") })
    }

    /// A scheduled batch runs with its author's authority at its deadline: a policy set since refuses it.
    @Test func aScheduledBatchFailsWhenItsAuthorMayNoLongerChangeTheWindow() throws {
        let (session, number) = try session()
        try session.apply(
            window: number, batchJSON: #"[{"command":"schedule","afterMs":0,"id":"t","commands":[{"command":"setParams","title":"Later"}]}]"#,
            client: ":1.2")
        try session.setWindowPolicy(window: number, policyJSON: #"{"change":["self"]}"#, client: ":1.1")
        let outcome = session.runDueScheduled(now: Int64.max / 2)
        let failed = outcome.events.contains { event in
            if case .changeFailed(number, "scheduledFailed", "t", let error) = event {
                return Self.denies(error)
            }
            return false
        }
        #expect(failed, "\(outcome.events)")
        #expect(try session.title(of: number) != "Later")
    }

    @Test func aPolicySurvivesARestartAndItsRemovalToo() throws {
        let directory = temporaryDirectory()
        var number: WindowNumber = 0
        var other: WindowNumber = 0
        var connection: WindowNumber = 0
        do {
            let (session, opened) = try session(directory: directory)
            number = opened
            other = try #require(session.openWindow(scene: "waiting").window)
            try session.setWindowPolicy(window: number, policyJSON: #"{"change":["host","app:org.example.Remote"],"manage":["host"]}"#, client: ":1.1")
            try session.setWindowPolicy(window: other, policyJSON: #"{"change":[]}"#, client: ":1.1")
            try session.setWindowPolicy(window: other, policyJSON: "{}", client: ":1.1")
            connection = try #require(session.openWindow(scene: "waiting").window)
            try session.setWindowPolicy(window: connection, policyJSON: #"{"change":["self","host"],"manage":["self"]}"#, client: ":1.1")
        }
        let restored = try demoSession(directory: directory)
        #expect(restored.windowsByNumber[number]?.policy == WindowPolicy(change: ["host", "app:org.example.Remote"]))
        #expect(restored.windowsByNumber[other]?.policy == nil)
        // A unique name named a connection of the bus before the restart: gone (fails closed; manage falls back).
        #expect(restored.windowsByNumber[connection]?.policy == WindowPolicy(change: ["host"], manage: ["host"]))
    }

    @Test func malformedPoliciesAreRefusedNamingWhatIsWrong() throws {
        let (session, number) = try session()
        for (json, words) in [
            (#"{"chnage":[]}"#, "unknown key 'chnage'"), (#"{"manage":["host"]}"#, "'change' is required"),
            (#"{"change":["nope"]}"#, "unknown principal"), (#"{"change":[],"manage":[]}"#, "may not be empty"),
            (#"{"change":["app:1x"]}"#, "not an application id"), (#"{"change":[":1.x"]}"#, "not a unique bus name"),
            ("[1]", "policy_json"), (#"{"change":"host"}"#, "policy_json"),
        ] {
            let message = Self.invalidArgumentsMessage { () throws(SessionError) in
                try session.setWindowPolicy(window: number, policyJSON: json, client: ":1.1")
            }
            #expect(message?.contains(words) == true, "\(json): \(message ?? "accepted or another error")")
        }
        #expect(throws: SessionError.self) { try session.setWindowPolicy(window: 99, policyJSON: "", client: ":1.1") }
        #expect(session.windowsByNumber[number]?.policy == nil)
    }

    @Test func aScenesPolicyIsItsNewWindowsAndAManifestMayNotNameAConnection() throws {
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(Manifest.demoJSON.utf8)) as? [String: Any])
        var scenes = try #require(manifest["scenes"] as? [[String: Any]])
        let index = try #require(scenes.firstIndex { $0["name"] as? String == "waiting" })
        scenes[index]["policy"] = ["change": ["app:org.example.Remote"]]
        manifest["scenes"] = scenes
        let text = String(decoding: try JSONSerialization.data(withJSONObject: manifest), as: UTF8.self)
        let session = try Session(manifest: try Manifest(json: text), store: nil)
        let number = try #require(session.openWindow(scene: "waiting").window)
        #expect(session.windowsByNumber[number]?.policy == WindowPolicy(change: ["app:org.example.Remote"]))
        scenes[index]["policy"] = ["change": [":1.5"]]
        manifest["scenes"] = scenes
        let connection = String(decoding: try JSONSerialization.data(withJSONObject: manifest), as: UTF8.self)
        #expect(throws: (any Error).self) { try Manifest(json: connection) }
    }

    @Test func theAppIDIsReadFromAFlatpakInfoFileAndAHostProcessHasNone() throws {
        #expect(Session.flatpakAppID(info: "[Application]\nname=org.example.Remote\nruntime=runtime/x\n") == "org.example.Remote")
        #expect(Session.flatpakAppID(info: "[Instance]\nname=x.y\n[Application]\r\nname = org.a.B\r\n") == "org.a.B")
        #expect(Session.flatpakAppID(info: "[Application]\nname=not an id\n") == nil)
        #expect(Session.flatpakAppID(info: "") == nil)
        #expect(Session.sandboxAppID(pid: getpid()) == "")
        // Where the daemon may not look into a client's root (the unit's user namespace): its systemd scope.
        #expect(Session.flatpakAppID(cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.Remote-4242.scope\n") == "org.example.Remote")
        #expect(Session.flatpakAppID(cgroup: "0::/user.slice/user@1000.service/app.slice/app-gnome-org.gnome.Maps-77.scope\n") == "")
        #expect(Session.flatpakAppID(cgroup: "1:name=systemd:/x\n") == nil)
        #expect(Session.sandboxAppID(pid: Int32.max) == nil)
    }
}
