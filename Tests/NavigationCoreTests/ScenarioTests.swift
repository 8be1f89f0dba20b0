import Testing

@testable import NavigationCore

/// Walks through the flows of a real app: login ↔ main tabs, two tabs with stacks, sheets, covers,
/// alerts, a logout dialog and an onboarding flow.
struct ScenarioTests {
    static let login = ModelSpec.stacked(.screen("login"), screen: "loginFlow")
    static let main = ModelSpec.tabs(
        [
            TabSpec(id: "feed", title: "Feed", icon: "list", model: .stacked(.screen("feed"), screen: "feedStack")),
            TabSpec(id: "profile", title: "Profile", icon: "person", model: .stacked(.screen("profile"), screen: "profileStack")),
        ], screen: "main")

    @Test func loggingInSwitchesToTheMainTabs() throws {
        let window = try makeWindow(.switched(Self.login, screen: "app"))
        let event = try window.execute(.switchModel(Self.main))
        #expect(event.finished == [2, 3])
        #expect(
            window.debugTree() == """
                switched app #1 (root)
                  tabs main #4 (switched)
                    stack feedStack #5 (tab feed*)
                      screen feed #6 (path[0])
                    stack profileStack #7 (tab profile)
                      screen profile #8 (path[0])

                """)
    }

    @Test func eachTabKeepsItsOwnStack() throws {
        let window = try makeWindow(.switched(Self.main, screen: "app"))
        try window.execute(.stackAppend(.screen("post", params: ["id": "1"])))
        try window.execute(.tabsSelectItem("profile"))
        try window.execute(.stackAppend(.screen("editProfile")))
        try window.execute(.tabsSelectItem("feed"))
        #expect(screens(of: 3, in: window) == ["feed", "post"])
        #expect(screens(of: 5, in: window) == ["profile", "editProfile"])
        #expect(window.activeModelID == 7)
    }

    @Test func pushPopPopToRootSetRootAndReverse() throws {
        let window = try makeWindow(.switched(Self.main, screen: "app"))
        try window.execute(.stackAppend(.screen("a"), .screen("b"), .screen("c")))
        try window.execute(.stackDropLast)
        #expect(screens(of: 3, in: window) == ["feed", "a", "b"])
        try window.execute(ReverseStack())
        #expect(screens(of: 3, in: window) == ["b", "a", "feed"])
        try window.execute(.stackSetRoot(.screen("newRoot")))
        #expect(screens(of: 3, in: window) == ["newRoot", "a", "feed"])
        try window.execute(.stackDropToRoot)
        #expect(screens(of: 3, in: window) == ["newRoot"])
        #expect(window.verifyPresenterIndex())
    }

    @Test func sheetAndCoverChainsWithAnAlertOnTop() throws {
        let window = try makeWindow(.switched(Self.main, screen: "app"))
        try window.execute(.present(.sheet(.stacked(.screen("compose")), detents: ["large"])))
        try window.execute(.stackAppend(.screen("attachments")))
        try window.execute(.present(.fullScreenCover(.screen("camera"))))
        try window.execute(.present(.alert(DialogContent(title: "No camera", actions: [DialogAction(id: "ok", title: "OK", role: .cancel)]))))
        #expect(
            window.debugTree() == """
                switched app #1 (root)
                  tabs main #2 (switched)
                    stack stack #7 (sheet large)
                      screen camera #10 (cover)
                        alert alert #11 (alert)
                      screen compose #8 (path[0])
                      screen attachments #9 (path[1])
                    stack feedStack #3 (tab feed*)
                      screen feed #4 (path[0])
                    stack profileStack #5 (tab profile)
                      screen profile #6 (path[0])

                """)
        try window.report(.alertActionChosen(alert: 11, action: "ok"))
        try window.execute(.dismiss)
        #expect(window.model(7)?.presented == nil && window.activeModelID == 9)
        try window.execute(.dismiss)
        #expect(window.model(2)?.presented == nil && window.modelCount == 6)
    }

    @Test func aConfirmationDialogActionLogsOut() throws {
        let window = try makeWindow(.switched(Self.main, screen: "app"))
        try window.execute(.tabsSelectItem("profile"))
        let logout = PresentationSpec.confirmationDialog(
            DialogContent(
                title: "Log out?",
                actions: [
                    DialogAction(id: "logout", title: "Log out", role: .destructive, commands: [.switchModel(Self.login)]),
                    DialogAction(id: "cancel", title: "Cancel", role: .cancel),
                ]),
            sourceID: "logoutButton")
        try window.execute(.present(logout))
        #expect(window.model(6)?.presented == 7)
        let event = try window.report(.alertActionChosen(alert: 7, action: "logout"))
        #expect(window.model(1)?.switchedModel == 8)
        #expect(event.finished == [7, 2, 3, 4, 5, 6])
        #expect(event.messages.first == DeliveredMessage(recipient: 6, sender: 7, message: .actionChosen("logout")))
        #expect(window.activeModelID == 9)
    }

    @Test func anOnboardingFlowIsPushedStepByStepAndHiddenFromItsRoot() throws {
        let window = try makeWindow(.switched(Self.main, screen: "app"))
        try window.execute(.present(.fullScreenCover(.stacked(.screen("welcome"), screen: "onboarding"))))
        for step in ["permissions", "account", "done"] { try window.execute(.stackAppend(.screen(step))) }
        #expect(screens(of: 7, in: window) == ["welcome", "permissions", "account", "done"])
        try window.execute(.hide, from: 10)
        #expect(screens(of: 7, in: window) == ["welcome", "permissions"])
        let event = try window.execute(.hide, from: 8)
        #expect(window.model(2)?.presented == nil && event.finished == [7, 8, 9])
    }

    @Test func aPresentedDialogAndItsPresenterExchangeMessages() throws {
        let window = try makeWindow(.switched(Self.main, screen: "app"))
        try window.execute(.present(.sheet(.screen("rename"))))
        var toPresenter: [String] = []
        var toSheet: [String] = []
        try window.onMessage(2) { toPresenter.append($0.message.name) }
        try window.onMessage(7) { toSheet.append($0.message.name) }
        try window.execute(.sendMessage(NavigationMessage("renamed", payload: "new name"), to: .presenter), from: 7)
        try window.execute(.sendMessage(NavigationMessage("ack"), to: .model(7)), from: 2)
        try window.execute(.dismissJustFromPresented, from: 7)
        #expect(toPresenter == ["renamed"])
        #expect(toSheet == ["ack", NavigationMessage.finishedName])
    }
}
