import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Protected models through the bus on the demo (Docs/guards.md): the fixture's connection protects the editor
/// sheet, and every way in, called by another client with gdbus, is refused with `Prevented` and changes nothing.
@Suite struct ProtectionBusTests {
    static let prevented = "org.navsession.Error.Prevented"

    /// A logged-in window with an editor sheet the fixture's connection protects; its path, the editor's id and the
    /// window's version.
    /// `dialog` "" (the default): the ways in are refused and nothing at all changes; with a dialog the daemon
    /// presents it in place of the refused change.
    func protectedEditor(_ fixture: DaemonFixture, dialog: String = "") async throws -> (window: String, editor: UInt64, version: UInt64) {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "Present", [.string("sheet"), .string("editor"), .params(["id": "1"])])
        let editor = try await fixture.modelID(window, where: "screen", is: "editor")
        _ = try await fixture.window(window, "Protect", [.uint64(editor), .string("unsaved text"), .string(dialog)])
        return (window, editor, try await fixture.version(window))
    }

    /// Runs gdbus `call` with `arguments` (object path, method, its arguments); the status and error text.
    func gdbus(_ fixture: DaemonFixture, _ path: String, _ method: String, _ arguments: [String] = []) async throws
        -> (ok: Bool, error: String)
    {
        let result = try await fixture.run(
            "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", path, "--method", method] + arguments)
        return (result.status == 0, result.stderr)
    }

    /// `refused` is a `Prevented` refusal and the editor is still there at the same version.
    func expectRefused(
        _ refused: (ok: Bool, error: String), _ fixture: DaemonFixture, _ setup: (window: String, editor: UInt64, version: UInt64),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(!refused.ok && refused.error.contains(Self.prevented), "\(refused)", sourceLocation: sourceLocation)
        #expect(try await fixture.version(setup.window) == setup.version, sourceLocation: sourceLocation)
        #expect(try await fixture.modelID(setup.window, where: "screen", is: "editor") == setup.editor, sourceLocation: sourceLocation)
    }

    func window1(_ member: String) -> String { "org.navsession.Window1.\(member)" }

    @Test func theMarkShowsInGetStateAndTheProtectedProperty() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture, dialog: "discardChanges")
            let model = try #require(try await fixture.models(setup.window).first { ($0["screen"] as? String) == "editor" })
            let mark = try #require(model["protection"] as? [String: Any])
            #expect(mark["reason"] as? String == "unsaved text")
            #expect(mark["dialog"] as? String == "discardChanges")
            #expect((mark["owner"] as? String)?.hasPrefix(":") == true)
            let tree = try #require(try await fixture.window(setup.window, "GetTree").first?.string)
            #expect(tree.contains("protected:"), "\(tree)")
            #expect(try await fixture.windowProperty(setup.window, "Protected") != .string("[]"))
        }
    }

    @Test func goBackFromAnotherClientIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(try await gdbus(fixture, setup.window, window1("GoBack")), fixture, setup)
            #expect(try await fixture.windowProperty(setup.window, "CanGoBack") == .boolean(false))
        }
    }

    @Test func aBatchFromAnotherClientIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(
                try await gdbus(fixture, setup.window, window1("Apply"), [#"[{"command":"goBackToRoot"}]"#, "{}"]), fixture, setup)
        }
    }

    @Test func checkAnswersPreventedWithoutChangingAnything() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(
                try await gdbus(fixture, setup.window, window1("Check"), [#"[{"command":"dismissAll"}]"#, "{}"]), fixture, setup)
        }
    }

    @Test func sessionApplyIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(
                try await gdbus(
                    fixture, DaemonFixture.session, "org.navsession.Session1.Apply", [setup.window, #"[{"command":"dismissAll"}]"#]),
                fixture, setup)
        }
    }

    @Test func setRoutesIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(try await gdbus(fixture, setup.window, window1("SetRoutes"), ["[]"]), fixture, setup)
        }
    }

    @Test func setStateIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            let state = try #require(try await fixture.window(setup.window, "GetState").first?.string)
            try await expectRefused(try await gdbus(fixture, setup.window, window1("SetState"), [state]), fixture, setup)
        }
    }

    @Test func aDeepLinkIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(
                try await gdbus(fixture, DaemonFixture.session, "org.navsession.Session1.OpenURL", ["navsession-demo://settings/profile"]),
                fixture, setup)
        }
    }

    @Test func switchModelIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(try await gdbus(fixture, setup.window, window1("SwitchModel"), ["login", "{}"]), fixture, setup)
        }
    }

    @Test func dismissWindowIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(
                try await gdbus(fixture, DaemonFixture.session, "org.navsession.Session1.DismissWindow", [setup.window]),
                fixture, setup)
        }
    }

    @Test func reportClosedFromAnotherRendererIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(try await gdbus(fixture, setup.window, window1("ReportClosed")), fixture, setup)
        }
    }

    @Test func reportDismissedFromAnotherRendererIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(
                try await gdbus(fixture, setup.window, window1("ReportDismissed"), ["\(setup.editor)"]), fixture, setup)
        }
    }

    @Test func onlyTheOwnerMayUnprotect() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            try await expectRefused(try await gdbus(fixture, setup.window, window1("Unprotect"), ["\(setup.editor)"]), fixture, setup)
            _ = try await fixture.window(setup.window, "Unprotect", [.uint64(setup.editor)])
            let dismissed = try await gdbus(fixture, setup.window, window1("GoBack"))
            #expect(dismissed.ok, "\(dismissed)")
        }
    }

    @Test func theMarkGoesWhenItsOwnerLeavesTheBus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("editor"), .params(["id": "1"])])
            let editor = try await fixture.modelID(window, where: "screen", is: "editor")
            let owner = try await fixture.connect()
            _ = try await owner.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
                interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("Protect"),
                arguments: [.uint64(editor), .string("unsaved text"), .string("")], timeout: .seconds(10))
            let marked = try await fixture.version(window)
            #expect(try await gdbus(fixture, window, window1("GoBack")).error.contains(Self.prevented))
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Changed")
            await owner.close()
            let dropped = await changes.first(within: Liveness.bound(.seconds(30))) { $0.arguments.first?.uint64 == marked + 1 }
            #expect(dropped != nil, "the mark goes as a change of its own")
            #expect(try await fixture.version(window) == marked + 1)
            #expect(try await gdbus(fixture, window, window1("GoBack")).ok)
        }
    }
}

extension ProtectionBusTests {
    @Test func aRefusedChangeSendsThePreventedSignal() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture, dialog: "discardChanges")
            let signals = try await fixture.signals(
                path: setup.window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Prevented")
            _ = try await gdbus(fixture, setup.window, window1("GoBack"))
            let signal = try await first(signals, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments.first == .uint64(setup.editor))
            #expect(signal.arguments[1] == .string("unsaved text"))
            #expect(signal.arguments[3] == .string("discardChanges"))
        }
    }
}

/// The renderer reports that are ways in, and marks across a daemon restart.
extension ProtectionBusTests {
    /// A logged-in window with `detail` pushed on the home tab, protected by the fixture's connection.
    func protectedPush(_ fixture: DaemonFixture) async throws -> (window: String, editor: UInt64, version: UInt64) {
        let window = try await fixture.openWindow()
        try await fixture.logIn(window)
        _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
        let detail = try await fixture.modelID(window, where: "screen", is: "detail")
        _ = try await fixture.window(window, "Protect", [.uint64(detail), .string("unsaved text"), .string("")])
        return (window, detail, try await fixture.version(window))
    }

    func expectPushRefused(
        _ refused: (ok: Bool, error: String), _ fixture: DaemonFixture, _ setup: (window: String, editor: UInt64, version: UInt64),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(!refused.ok && refused.error.contains(Self.prevented), "\(refused)", sourceLocation: sourceLocation)
        #expect(try await fixture.version(setup.window) == setup.version, sourceLocation: sourceLocation)
        #expect(try await fixture.modelID(setup.window, where: "screen", is: "detail") == setup.editor, sourceLocation: sourceLocation)
    }

    func parent(of model: UInt64, in fixture: DaemonFixture, _ window: String) async throws -> UInt64 {
        let entry = try #require(try await fixture.models(window).first { ($0["id"] as? NSNumber)?.uint64Value == model })
        return try #require((entry["parent"] as? NSNumber)?.uint64Value)
    }

    @Test func reportPoppedFromAnotherRendererIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedPush(fixture)
            let stack = try await parent(of: setup.editor, in: fixture, setup.window)
            try await expectPushRefused(
                try await gdbus(fixture, setup.window, window1("ReportPopped"), ["\(stack)", "0"]), fixture, setup)
            #expect(try await fixture.windowProperty(setup.window, "CanPop") == .boolean(false))
        }
    }

    @Test func reportTabSelectedReselectPopIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedPush(fixture)
            let tabs = try await fixture.modelID(setup.window, where: "kind", is: "tabs")
            try await expectPushRefused(
                try await gdbus(fixture, setup.window, window1("ReportTabSelected"), ["\(tabs)", "home"]), fixture, setup)
        }
    }

    @Test func aDialogActionThatWouldRemoveTheModelIsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let setup = try await protectedEditor(fixture)
            _ = try await fixture.window(setup.window, "Present", [.string("alert"), .string("discardChanges"), .noParams])
            let alert = try await fixture.modelID(setup.window, where: "kind", is: "alert")
            let version = try await fixture.version(setup.window)
            let refused = try await gdbus(fixture, setup.window, window1("ReportActionChosen"), ["\(alert)", "discard"])
            #expect(!refused.ok && refused.error.contains(Self.prevented), "\(refused)")
            #expect(try await fixture.version(setup.window) == version)
            #expect(try await fixture.modelID(setup.window, where: "screen", is: "editor") == setup.editor)
        }
    }

    @Test func aRestartedDaemonDropsMarksWhoseOwnerIsGone() async throws {
        try await DaemonFixture.with { fixture in
            let process = try #require(fixture.process)
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("editor"), .params(["id": "1"])])
            let editor = try await fixture.modelID(window, where: "screen", is: "editor")
            let owner = try await fixture.connect()
            _ = try await owner.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(window),
                interface: try InterfaceName(DaemonFixture.windowInterface), member: try MemberName("Protect"),
                arguments: [.uint64(editor), .string("unsaved text"), .string("")], timeout: .seconds(10))
            let marked = try await fixture.version(window)
            process.signal(SIGKILL)
            #expect(await fixture.waitForExit(process))
            await owner.close()
            // Installed before the relaunch, so the restarted daemon's dropping change cannot be missed.
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName(DaemonFixture.windowInterface), member: "Changed")
            try await fixture.relaunch()
            let dropped = await changes.first(within: Liveness.bound(.seconds(30))) { $0.arguments.first?.uint64 == marked + 1 }
            #expect(dropped != nil, "the restarted daemon drops the mark as a change of its own")
            #expect(try await fixture.windowProperty(window, "Protected") == .string("[]"))
            #expect(try await gdbus(fixture, window, window1("GoBack")).ok)
        }
    }
}

/// The dialog path: a refused change presents the mark's dialog; "Discard" re-applies it once, "Keep editing" leaves
/// everything as it was.
extension ProtectionBusTests {
    /// Refuses GoBackToRoot from another client; the dialog the daemon presented instead.
    func refusedWithDialog(_ fixture: DaemonFixture) async throws -> (setup: (window: String, editor: UInt64, version: UInt64), alert: UInt64) {
        let setup = try await protectedEditor(fixture, dialog: "discardChanges")
        let refused = try await gdbus(fixture, setup.window, window1("GoBackToRoot"))
        #expect(!refused.ok && refused.error.contains(Self.prevented), "\(refused)")
        #expect(try await fixture.version(setup.window) == setup.version + 1, "the dialog is one change")
        let alert = try await fixture.modelID(setup.window, where: "kind", is: "alert")
        return (setup, alert)
    }

    @Test func aRefusedChangePresentsTheMarksDialogAndDiscardReappliesItOnce() async throws {
        try await DaemonFixture.with { fixture in
            let (setup, alert) = try await refusedWithDialog(fixture)
            let chosen = try await gdbus(fixture, setup.window, window1("ReportActionChosen"), ["\(alert)", "discard"])
            #expect(chosen.ok, "\(chosen)")
            #expect(try await fixture.version(setup.window) == setup.version + 2, "closing the dialog and the change: one change")
            #expect(try await fixture.window(setup.window, "GetRoutes").first?.string == "[]", "back at the root")
            #expect(try await fixture.windowProperty(setup.window, "Protected") == .string("[]"), "the mark went with the editor")
            let again = try await gdbus(fixture, setup.window, window1("ReportActionChosen"), ["\(alert)", "discard"])
            #expect(!again.ok, "the dialog is gone: the change is not re-applied twice")
        }
    }

    @Test func keepEditingClosesTheDialogAndLeavesEverythingElse() async throws {
        try await DaemonFixture.with { fixture in
            let (setup, alert) = try await refusedWithDialog(fixture)
            let chosen = try await gdbus(fixture, setup.window, window1("ReportActionChosen"), ["\(alert)", "keep"])
            #expect(chosen.ok, "\(chosen)")
            #expect(try await fixture.modelID(setup.window, where: "screen", is: "editor") == setup.editor)
            #expect(try await fixture.models(setup.window).contains { ($0["kind"] as? String) == "alert" } == false)
            #expect(try await fixture.windowProperty(setup.window, "Protected") != .string("[]"))
        }
    }
}
