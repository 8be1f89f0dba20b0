import NavigationCore
import NavigationRouting
import Testing

@testable import NavigationSession

struct SessionStateTests {
    @Test func newMainWindowShowsTheLoginState() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let window = try session.window(number)
        #expect(window.currentState == "login")
        #expect(window.activeScreen == "login")
    }

    @Test func switchModelToAStateBuildsItsStructure() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let window = try session.window(number)
        #expect(window.currentState == "main")
        #expect(window.selectedTab == "home")
        #expect(window.activeScreen == "home")
    }

    @Test func namedDialogActionLogsOut() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let logout = try session.presentation(kind: "confirmationDialog", screen: "logout", in: number)
        try session.execute(window: number, command: .present(logout))
        let window = try session.window(number)
        let dialog = window.graph.activeModelID
        #expect(window.graph.model(dialog)?.kind == .confirmationDialog)
        let outcome = try session.report(window: number, .alertActionChosen(alert: dialog, action: "logout"))
        #expect(window.currentState == "login")
        // The finished models travel in the change itself (Changed.finished), not as one message each.
        #expect(outcome.events.contains { if case .changed(number, let change, _, _) = $0 { !change.finished.isEmpty } else { false } })
        #expect(!outcome.events.contains { if case .message(number, let m) = $0 { m.message == .finished } else { false } })
    }

    @Test func unknownDialogIsTyped() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        #expect(throws: SessionError.unknownDialog("nope")) {
            try session.presentation(kind: "alert", screen: "nope", in: number)
        }
    }

    @Test func presentationKindsResolve() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let sheet = try session.presentation(kind: "sheet+stack", screen: "editor", params: ["id": "1"], in: number)
        #expect(sheet.style == .sheet(detents: []))
        #expect(sheet.model.kind == .stack)
        #expect(try session.presentation(kind: "popover", screen: "about", in: number).style == .custom("popover"))
        #expect(throws: SessionError.navigation(.unknownPresentationKind("drawer"))) {
            try session.presentation(kind: "drawer", screen: "about", in: number)
        }
    }

    @Test func titleFallsBackToTheManifest() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        #expect(try session.title(of: number) == "Home")
    }

    /// The title read from the active model's fields (the window's `Title` after every change) is the one read from its
    /// whole state, for a declared screen, a screen with its own title, an alert and a titled dialog.
    @Test func theTitleFromAModelsFieldsIsTheTitleFromItsState() throws {
        let session = try demoSession()
        let number = try loggedInMain(session)
        let window = try session.window(number)
        func agree() {
            for id in window.graph.activePath {
                #expect(session.title(of: window.graph.ownTitle(of: id)) == session.title(of: window.graph.model(id)))
            }
        }
        agree()
        try session.execute(window: number, command: .stackAppend(.screen("detail", params: ["id": "1"], title: "Own")))
        agree()
        try session.execute(window: number, command: .present(.alert(DialogContent(title: "Sure?", message: "m"))))
        agree()
        try session.execute(window: number, command: .dismiss)
        try session.execute(window: number, command: .present(.confirmationDialog(DialogContent(title: "Pick"))))
        agree()
        #expect(try session.title(of: number) == "Pick")
        #expect(session.title(of: window.graph.ownTitle(of: ModelID(rawValue: 9_999))) == "")
    }

    @Test func onboardingIsPushedStepByStepInACover() throws {
        let session = try demoSession()
        let number = try #require(session.openWindow(scene: "main").window)
        let cover = try session.presentation(kind: "cover+stack", screen: "onboarding1", in: number)
        try session.execute(window: number, command: .present(cover))
        try session.execute(window: number, command: .stackAppend(.screen("onboarding2")))
        try session.execute(window: number, command: .stackAppend(.screen("onboarding3")))
        let window = try session.window(number)
        #expect(window.graph.routes == [.cover("onboarding1", withNavigation: true), .push("onboarding2"), .push("onboarding3")])
    }
}
