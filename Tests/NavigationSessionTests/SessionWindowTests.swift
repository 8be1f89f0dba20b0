import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

struct SessionWindowTests {
    @Test func openListAndDismissWindows() throws {
        let session = try demoSession()
        let main = try #require(session.openWindow(scene: "main").window)
        let waiting = try #require(session.openWindow(scene: "waiting", params: ["reason": "sync"]).window)
        #expect(session.windows.map(\.number) == [main, waiting])
        #expect(session.windows.map(\.scene) == ["main", "waiting"])
        let outcome = try session.dismissWindow(main)
        #expect(outcome.closedWindows == [main])
        #expect(session.windows.map(\.number) == [waiting])
    }

    @Test func aDeepLinkLandingOnTheSelectedTabAppliesItsReselectPolicy() throws {
        let session = try demoSession()
        let main = try loggedInMain(session)
        try session.execute(window: main, command: .stackAppend(.screen("about")))
        // The demo's tabs reselect with popToRoot: the link lands on home's root, not on top of "about".
        try session.openURL("navsession-demo://detail/42")
        #expect(try session.window(main).graph.routes == [.push("detail", params: ["id": "42"])])
    }

    @Test func openWindowReportsTheOpenEvent() throws {
        let session = try demoSession()
        let outcome = try session.openWindow(scene: "waiting")
        #expect(outcome.events == [.windowOpened(1, scene: "waiting")])
        #expect(outcome.windowVersion == 0)
    }

    @Test func singletonSceneReturnsTheOpenWindow() throws {
        let session = try demoSession()
        let first = try session.openWindow(scene: "main")
        let second = try session.openWindow(scene: "main")
        #expect(first.window == second.window)
        #expect(second.events.isEmpty)
        #expect(session.windows.count == 1)
    }

    @Test func multiInstanceSceneOpensNewWindows() throws {
        let session = try demoSession()
        try session.openWindow(scene: "waiting")
        try session.openWindow(scene: "waiting")
        #expect(session.windows.map(\.number) == [1, 2])
    }

    @Test func windowNumbersAreNeverReused() throws {
        let session = try demoSession()
        let first = try #require(session.openWindow(scene: "waiting").window)
        try session.dismissWindow(first)
        let second = try #require(session.openWindow(scene: "waiting").window)
        #expect(second == first + 1)
    }

    @Test func unknownSceneIsTyped() throws {
        let session = try demoSession()
        #expect(throws: SessionError.unknownScene("nope")) { try session.openWindow(scene: "nope") }
    }

    @Test func undeclaredParameterIsInvalidArgs() throws {
        let session = try demoSession()
        do {
            try session.openWindow(scene: "waiting", params: ["colour": "red"])
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "invalidArguments")
            #expect(error.message.contains("colour"))
        }
    }

    @Test func missingRequiredParameterIsInvalidArgs() throws {
        let manifest = try Manifest(
            applicationID: "com.example.Notes",
            screens: [ScreenDeclaration(name: "note", required: ["id"])],
            scenes: [SceneDeclaration(name: "note", isDefault: true, instances: .multiple, root: .stacked(.screen("note")))])
        let session = try Session(manifest: manifest)
        #expect(throws: SessionError.invalidArguments("scene 'note': screen 'note' requires parameter 'id'")) {
            try session.openWindow(scene: "note")
        }
        let number = try #require(session.openWindow(scene: "note", params: ["id": "7"]).window)
        let root = try session.window(number).graph.snapshot().models.first { $0.screen == "note" }
        #expect(root?.params == ["id": "7"])
    }

    @Test func sessionVersionBumpsOnOpenAndClose() throws {
        let session = try demoSession()
        #expect(session.version == 0)
        let number = try #require(session.openWindow(scene: "waiting").window)
        #expect(session.version == 1)
        try session.openWindow(scene: "main")
        try session.openWindow(scene: "main")
        #expect(session.version == 2)
        try session.dismissWindow(number)
        #expect(session.version == 3)
    }

    @Test func dismissUnknownWindowIsUnknownObject() throws {
        let session = try demoSession()
        do {
            try session.dismissWindow(9)
            Issue.record("expected an error")
        } catch {
            #expect(error == .unknownWindow(9))
            #expect(errorCase(error) == "unknownWindow")
        }
    }

    @Test func dismissFinishesTheGraphFirst() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.dismissWindow(number)
        let change = try #require(outcome.changes(of: number).first)
        #expect(!change.finished.isEmpty)
        #expect(outcome.events.last == .windowClosed(number, scene: "main"))
    }

    @Test func windowLimitIsEnforced() throws {
        let session = try demoSession(limits: SessionLimits(maxWindows: 2))
        try session.openWindow(scene: "waiting")
        try session.openWindow(scene: "waiting")
        do {
            try session.openWindow(scene: "waiting")
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "limitsExceeded")
        }
    }

    @Test func applyIsAtomic() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let window = try session.window(number)
        let before = window.graph.snapshot()
        let batch = [BatchCommand(.stackAppend(.screen("detail", params: ["id": "1"]))), BatchCommand(.tabsSelectItem("nope"))]
        #expect(throws: SessionError.self) { try session.apply(window: number, batch: batch) }
        #expect(window.graph.snapshot() == before)
    }

    @Test func applyBumpsTheWindowVersionOnce() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let json = #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"}}]},{"command":"tabsSelectItem","tab":"settings"}]"#
        let before = try session.window(number).version
        let outcome = try session.apply(window: number, batchJSON: json)
        #expect(outcome.windowVersion == before + 1)
        #expect(outcome.changes(of: number).count == 1)
    }

    @Test func invalidBatchJSONCarriesTheDecodingMessage() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        do {
            try session.apply(window: number, batchJSON: #"[{"command":"fly"}]"#)
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "invalidBatch")
            #expect(error.message.contains("fly"))
        }
    }

    @Test func executeRunsFromTheGivenModel() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let graph = try session.window(number).graph
        let settingsStack = try #require(graph.snapshot().models.first { $0.attachment == .tab("settings") }?.id)
        try session.execute(window: number, command: .stackAppend(.screen("profile")), from: settingsStack)
        let path = try #require(graph.model(settingsStack)?.path)
        #expect(path.count == 2)
        #expect(try session.window(number).selectedTab == "home")
    }

    @Test func navigationErrorsHaveDistinctNames() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        do {
            try session.execute(window: number, command: .dismiss)
            Issue.record("expected an error")
        } catch {
            #expect(errorCase(error) == "nothingToDismiss")
        }
    }

    @Test func closeOnExitOwnerVanishingClosesExactlyItsWindows() throws {
        let session = try demoSession()
        let a = try #require(session.openWindow(scene: "waiting").window)
        let b = try #require(session.openWindow(scene: "waiting").window)
        let c = try #require(session.openWindow(scene: "waiting").window)
        try session.setCloseOnExit(window: a, owner: ":1.7")
        try session.setCloseOnExit(window: b, owner: ":1.8")
        try session.setCloseOnExit(window: c, owner: ":1.7")
        let outcome = try session.clientVanished(uniqueName: ":1.7")
        #expect(outcome.closedWindows == [a, c])
        #expect(session.windows.map(\.number) == [b])
    }

    @Test func openWindowEffectOpensAWindow() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.execute(window: number, command: .openWindow(scene: "waiting", params: ["reason": "x"]))
        #expect(outcome.openedWindows.count == 1)
        #expect(session.windows.map(\.scene) == ["main", "waiting"])
    }

    @Test func failedEffectIsReportedNotThrown() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.execute(window: number, command: .openWindow(scene: "nowhere", params: [:]))
        #expect(outcome.events.contains { if case .effectFailed(number, _, .unknownScene("nowhere", _)) = $0 { true } else { false } })
    }

    @Test func triggerEffectIsAnnounced() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let outcome = try session.execute(window: number, command: .trigger(name: "beep", payload: "1"))
        #expect(outcome.events.contains(.trigger(number, name: "beep", payload: "1")))
    }
}
