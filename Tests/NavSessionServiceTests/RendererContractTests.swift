import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The renderer contract (Docs/renderers.md), through the bus against the demo manifest:
/// strict input, visible outcomes, no-op commands, capabilities, dry runs, compare-and-set and created ids.
@Suite struct RendererContractTests {
    static let navsession = "org.navsession.Error."

    func dbusSend(_ fixture: DaemonFixture, _ path: String, _ member: String, _ arguments: [String]) async throws -> ToolResult {
        try await fixture.run(
            "dbus-send", ["--session", "--print-reply", "--dest=\(DaemonFixture.name)", path, member] + arguments)
    }

    // MARK: Strict input

    @Test func aMisspeltScreenIsUnknownAndTheClosestIsNamed() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let before = try await fixture.version(window)
            let push = await fixture.error { try await fixture.window(window, "StackAppend", [.string("detial"), .params(["id": "1"])]) }
            #expect(push?.name.rawValue == Self.navsession + "UnknownScreen")
            #expect(push?.message.contains("did you mean 'detail'?") == true, "\(String(describing: push))")
            let present = await fixture.error { try await fixture.window(window, "Present", [.string("sheet"), .string("nope"), .noParams]) }
            #expect(present?.name.rawValue == Self.navsession + "UnknownScreen")
            let batch = #"[{"command":"stackAppend","models":[{"screen":"mesage"}]}]"#
            let applied = await fixture.error { try await fixture.session("Apply", [try .path(window), .string(batch)]) }
            #expect(applied?.name.rawValue == Self.navsession + "UnknownScreen")
            #expect(try await fixture.version(window) == before)
        }
    }

    @Test func anUnknownCommandKeyIsAnErrorNamingTheKeyMeantWithDbusSend() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let result = try await dbusSend(
                fixture, window, "org.navsession.Window1.Apply",
                [#"string:[{"command":"stackAppend","models":[{"screen":"about"}],"animate":false}]"#, "dict:string:string:"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.navsession.Error.InvalidBatch"), "\(result)")
            #expect(result.stderr.contains(#"did you mean "animated"?"#), "\(result)")
        }
    }

    @Test func aDeclaredDialogKeepsItsKind() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let asAlert = await fixture.error {
                try await fixture.window(window, "PresentAlert", [.string("logout"), .string(""), .strings([])])
            }
            #expect(asAlert?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
            let viaPresent = await fixture.error {
                try await fixture.window(window, "Present", [.string("alert"), .string("logout"), .noParams])
            }
            #expect(viaPresent?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
            _ = try await fixture.window(
                window, "PresentConfirmationDialog", [.string("logout"), .string(""), .strings([]), .string("")])
        }
    }

    @Test func aDialogWhoseActionCannotRunWhereItWouldBePresentedIsRefusedUpFront() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            // An action that dismisses: from the home screen there is nothing to dismiss.
            let alert = #"[{"command":"present","presentation":{"kind":"alert","title":"Close?","actions":"#
                + #"[{"id":"close","title":"Close","commands":[{"command":"dismiss"}]}]}}]"#
            let refused = await fixture.error { try await fixture.window(window, "Apply", [.string(alert), .noParams]) }
            #expect(refused?.name.rawValue == Self.navsession + "NothingToDismiss")
            #expect(refused?.message.contains("action 'close'") == true, "\(String(describing: refused))")
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            let shown = try await fixture.window(window, "Apply", [.string(alert), .noParams])
            let active = try await fixture.windowProperty(window, "ActiveModel")
            _ = try await fixture.window(window, "ReportActionChosen", [active, .string("close")])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            #expect(shown.first?.uint64 != nil)
        }
    }

    /// "discardChanges" re-applies the change its mark refused; its own `dismiss` is only the fallback when no
    /// change is kept, so it is not tried up front: presented from the home screen, "Discard" closes it alone.
    @Test func aDiscardDialogIsPresentedAnywhereAndItsFallbackClosesItAloneWhereItCannotRun() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("alert"), .string("discardChanges"), .noParams])
            let alert = try await fixture.windowProperty(window, "ActiveModel")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("alert"))
            _ = try await fixture.window(window, "ReportActionChosen", [alert, .string("discard")])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
        }
    }

    @Test func anActionTitleCanHoldAColonAndTheAlertTitleIsTheTitleProperty() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(
                window, "PresentAlert", [.string("Heads up"), .string(""), .strings([#"ok:Note\: read me:cancel"#])])
            #expect(try await fixture.windowProperty(window, "Title") == .string("Heads up"))
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            #expect(state.contains(#""title":"Note: read me""#), "\(state)")
        }
    }

    // MARK: Steps from the graph

    func changedSteps(_ signal: Signal) throws -> [[String: Any]] {
        let text = try #require(signal.arguments[6].string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
    }

    @Test func aPopUnderAnOpenSheetAndATabSwitchAreSingleStepsThroughTheBus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let home = try await fixture.modelID(window, where: "screen", is: "home")
            let stack = try #require(try await fixture.models(window).first { ($0["path"] as? [Any])?.count == 2 }?["id"] as? NSNumber)
            // Presented by the stack itself (not by the detail, whose sheet would go with it when it is popped).
            let sheet = #"{"kind":"sheet","model":{"kind":"stack","path":[{"screen":"editor","params":{"id":"1"}}]}}"#
            _ = try await fixture.session(
                "Apply", [try .path(window), .string(#"[{"command":"present","presentation":\#(sheet),"from":\#(stack)}]"#)])
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            // A pop under the sheet: the sheet stays, so the only step is the pop.
            _ = try await fixture.session(
                "Apply", [try .path(window), .string(#"[{"command":"stackDropToRoot","from":\#(stack)}]"#)])
            let popped = try changedSteps(try await first(changes, timeout: .seconds(10)) { _ in true })
            #expect(popped.map { $0["kind"] as? String } == ["pop"], "\(popped)")
            #expect((popped.first?["stack"] as? NSNumber)?.uint64Value == stack.uint64Value)
            // A tab switch with the sheet open: one step of its own kind, naming the tab.
            _ = try await fixture.window(window, "StackAppendAt", [.uint64(home), .string("about"), .noParams])
            _ = try await first(changes, timeout: .seconds(10)) { _ in true }
            _ = try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"tabsSelectItem","tab":"settings","from":\#(home)}]"#)])
            let switched = try changedSteps(try await first(changes, timeout: .seconds(10)) { _ in true })
            #expect(switched.map { $0["kind"] as? String } == ["selectTab"], "\(switched)")
            #expect(switched.first?["tab"] as? String == "settings")
            #expect(switched.first?["previous"] as? String == "home")
        }
    }

    // MARK: No-ops

    @Test func popToRootAtTheRootAndReselectingATabChangeNothing() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            #expect(try await fixture.window(window, "StackDropToRoot").first?.uint64 == version)
            #expect(try await fixture.window(window, "TabsSelectItem", [.string("home")]).first?.uint64 == version)
            // The next real change is the next version, and it is the first Changed signal.
            let pushed = try #require(
                try await fixture.window(window, "StackAppend", [.string("about"), .noParams]).first?.uint64)
            #expect(pushed == version + 1)
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(changed.arguments[0] == .uint64(version + 1))
        }
    }

    // MARK: Capabilities and dry runs

    @Test func capabilityPropertiesFollowTheGraph() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(false))
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            #expect(try await fixture.windowProperty(window, "CanPop") == .boolean(true))
            #expect(try await fixture.windowProperty(window, "CanDismiss") == .boolean(false))
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
            #expect(try await fixture.windowProperty(window, "CanDismiss") == .boolean(true))
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(true))
            _ = try await fixture.window(window, "Dismiss")
            _ = try await fixture.window(window, "StackDropLast", [.uint32(1)])
            #expect(try await fixture.windowProperty(window, "CanGoBack") == .boolean(false))
        }
    }

    @Test func checkRepliesWhatApplyWouldAndChangesNothing() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            let batch = Value.string(#"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#)
            let checked = try await fixture.window(window, "Check", [batch, .noParams])
            #expect(try await fixture.version(window) == version)
            let applied = try await fixture.window(window, "Apply", [batch, .noParams])
            #expect(checked == applied)
            #expect(applied.first == .uint64(version + 1))
            #expect(applied[1].arrayElements?.count == 1)
            let refused = await fixture.error {
                try await fixture.window(window, "Check", [.string(#"[{"command":"dismiss"}]"#), .noParams])
            }
            #expect(refused?.name.rawValue == Self.navsession + "NothingToDismiss")
        }
    }

    // MARK: Compare-and-set and created ids

    @Test func applyWithAStaleExpectedVersionIsRefused() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            let batch = #"string:[{"command":"stackAppend","models":[{"screen":"about"}]}]"#
            let stale = try await dbusSend(
                fixture, window, "org.navsession.Window1.Apply", [batch, "dict:string:string:expected_version,\(version - 1)"])
            #expect(stale.status != 0)
            #expect(stale.stderr.contains("org.navsession.Error.VersionMismatch"), "\(stale)")
            #expect(try await fixture.version(window) == version)
            let current = try await dbusSend(
                fixture, window, "org.navsession.Window1.Apply", [batch, "dict:string:string:expected_version,\(version)"])
            #expect(current.status == 0, "\(current)")
            #expect(try await fixture.version(window) == version + 1)
            let unknown = try await dbusSend(
                fixture, window, "org.navsession.Window1.Apply", [batch, "dict:string:string:expected_versoin,1"])
            #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(unknown)")
            #expect(unknown.stderr.contains("did you mean 'expected_version'?"), "\(unknown)")
        }
    }

    @Test func applyReturnsTheIdsItStartedAsChangedDoes() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let batch = #"[{"command":"present","presentation":{"kind":"sheet","model":{"kind":"stack","path":[{"screen":"editor","params":{"id":"1"}}]}}}]"#
            let reply = try await fixture.window(window, "Apply", [.string(batch), .noParams])
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(reply[1] == changed.arguments[4])
            #expect(reply[1].arrayElements?.count == 2)
            let editor = try #require(reply[1].arrayElements?.last?.uint64)
            _ = try await fixture.window(window, "StackAppendAt", [.uint64(editor), .string("about"), .noParams])
        }
    }

    // MARK: Visible outcomes

    @Test func aWaitingDeepLinkIsVisibleUntilItLands() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let reply = try await fixture.session("OpenURL", [.string("navsession-demo://detail/42")])
            #expect(reply.first?.objectPath?.rawValue == window)
            #expect(try await fixture.windowProperty(window, "PendingDeepLink") == .string("navsession-demo://detail/42"))
            try await fixture.logIn(window)
            #expect(try await fixture.windowProperty(window, "PendingDeepLink") == .string(""))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("detail"))
        }
    }

    @Test func aFailedEffectIsSignalled() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let effects = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Effect")
            _ = try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"dismissWindow","window":"99"}]"#)])
            let effect = try await first(effects, timeout: .seconds(10)) { _ in true }
            #expect(effect.arguments[0] == .string("effectFailed"))
            let args = effect.arguments[1].keyedEntries
            #expect(args["effect"] == .string("dismissWindow"))
            #expect(args["error"]?.string?.hasPrefix("org.") == true)
        }
    }

    @Test func anApplyThatClosesItsOwnWindowReturnsItsLastVersion() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let version = try await fixture.logIn(window)
            let reply = try await fixture.window(window, "Apply", [.string(#"[{"command":"dismissWindow"}]"#), .noParams])
            // The batch's change, then the close that finished every model: the window's last version.
            #expect(reply.first == .uint64(version + 2))
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.isEmpty == true)
        }
    }

    // MARK: The documents agree with the daemon

    @Test func documentedErrorsOfEmptyBatchesDismissAndCountsAreTheOnesReturned() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            #expect(await fixture.error { try await fixture.session("Apply", [try .path(window), .string("[]")]) }?
                .name.rawValue == Self.navsession + "EmptyBatch")
            #expect(await fixture.error { try await fixture.window(window, "DismissJustFromPresented") }?
                .name.rawValue == Self.navsession + "NotInsidePresentation")
            #expect(await fixture.error { try await fixture.window(window, "StackDropLast", [.uint32(0)]) }?
                .name.rawValue == Self.navsession + "InvalidCount")
            #expect(await fixture.error { try await fixture.window(window, "Dismiss") }?
                .name.rawValue == Self.navsession + "NothingToDismiss")
        }
    }
}

/// Window1 `SetState`: a whole state loaded into a window as one change (fixtures).
@Suite struct SetStateTests {
    @Test func aSavedStateLoadsIntoAnotherWindowWithFreshIds() async throws {
        try await DaemonFixture.with { fixture in
            let source = try await fixture.openWindow()
            try await fixture.logIn(source)
            _ = try await fixture.window(source, "StackAppend", [.string("detail"), .params(["id": "7"])])
            _ = try await fixture.window(source, "Present", [.string("sheet"), .string("about"), .noParams])
            let state = try #require(try await fixture.window(source, "GetState").first?.string)
            let tree = try #require(try await fixture.window(source, "GetTree").first?.string)

            _ = try await fixture.window(source, "ReportClosed")
            let target = try await fixture.openWindow()
            let before = try await fixture.version(target)
            let changes = try await fixture.signals(
                path: target, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            let reply = try await fixture.window(target, "SetState", [.string(state)])
            #expect(reply.first == .uint64(before + 1))
            let changed = try await first(changes, timeout: .seconds(10)) { _ in true }
            #expect(changed.arguments[2] == .string(#"{"setState":true}"#))
            #expect((changed.arguments[4].arrayElements?.count ?? 0) > 0 && (changed.arguments[5].arrayElements?.count ?? 0) > 0)
            let loaded = try #require(try await fixture.window(target, "GetTree").first?.string)
            #expect(Self.withoutIDs(loaded) == Self.withoutIDs(tree))
            #expect(try await fixture.windowProperty(target, "ActiveScreen") == .string("about"))

            try await fixture.stopDaemon()
            try await fixture.relaunch()
            #expect(Self.withoutIDs(try #require(try await fixture.window(target, "GetTree").first?.string)) == Self.withoutIDs(tree))
        }
    }

    @Test func anInvalidOrUndeclaredStateIsRefusedAndChangesNothing() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let before = try await fixture.version(window)
            let state = try #require(try await fixture.window(window, "GetState").first?.string)
            let invalid = await fixture.error { try await fixture.window(window, "SetState", [.string("{}")]) }
            #expect(invalid?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
            let undeclared = state.replacingOccurrences(of: #""screen":"login""#, with: #""screen":"lgoin""#)
            #expect(undeclared != state)
            let unknown = await fixture.error { try await fixture.window(window, "SetState", [.string(undeclared)]) }
            #expect(unknown?.name.rawValue == "org.navsession.Error.UnknownScreen")
            #expect(try await fixture.version(window) == before)
        }
    }

    /// The tree text without `#id` markers, to compare structures across windows.
    static func withoutIDs(_ tree: String) -> String {
        tree.replacing(#/#\d+/#, with: "#")
    }
}

/// "Did you mean" for the names a caller types: scenes and tabs (screens: `aMisspeltScreenIsUnknown…`).
@Suite struct SuggestionTests {
    @Test func aMisspeltSceneOrTabNamesTheClosest() async throws {
        try await DaemonFixture.with { fixture in
            let scene = await fixture.error { try await fixture.session("OpenWindow", [.string("mian"), .noParams]) }
            #expect(scene?.name.rawValue == "org.navsession.Error.UnknownScene")
            #expect(scene?.message.contains("did you mean 'main'?") == true, "\(String(describing: scene))")
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let tab = await fixture.error { try await fixture.window(window, "TabsSelectItem", [.string("setings")]) }
            #expect(tab?.name.rawValue == "org.navsession.Error.UnknownTab")
            #expect(tab?.message.contains("did you mean 'settings'?") == true, "\(String(describing: tab))")
        }
    }
}
