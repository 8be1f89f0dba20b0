import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Window1 `Undo`/`Redo`, `CanUndo`/`CanRedo`/`UndoLabel` through the bus (gdbus, dbus-send) on the demo manifest:
/// the same models come back (ids, params, renderer state), marks refuse, a restart keeps what can be undone.
@Suite struct UndoBusTests {
    func flag(_ fixture: DaemonFixture, _ window: String, _ name: String) async throws -> Bool {
        try await fixture.windowProperty(window, name) == .boolean(true)
    }

    func state(_ fixture: DaemonFixture, _ window: String) async throws -> [String: Any] {
        let text = try #require(try await fixture.window(window, "GetState").first?.string)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The models as (id, screen, params, renderer state), sorted by id: what "the same models" means.
    func models(_ fixture: DaemonFixture, _ window: String) async throws -> [String] {
        let models = try #require(try await state(fixture, window)["models"] as? [[String: Any]])
        return models.map { model in
            let params = (model["params"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let renderer = (model["rendererState"] as? [String: Any]).map { "\($0)" } ?? ""
            return "\(model["id"] ?? "") \(model["screen"] ?? "") \(params) \(renderer)"
        }.sorted()
    }

    @Test func undoOfADismissalWithGdbusBringsTheSheetBackWithItsIdsAndItsDraft() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "7"])])
            let editor = try await fixture.modelID(window, where: "screen", is: "editor")
            _ = try await fixture.window(window, "SetRendererState", [.uint64(editor), .string(#"{"draft":"Dear Ann,"}"#)])
            let before = try await models(fixture, window)
            _ = try await fixture.window(window, "Dismiss")
            #expect(try await fixture.windowProperty(window, "UndoLabel") == .string("Undo close Editor"))
            let undone = try await fixture.gdbus(window, "Undo")
            #expect(undone.status == 0, "\(undone)")
            #expect(try await models(fixture, window) == before, "the same models, ids, params and draft")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("editor"))
            #expect(try await flag(fixture, window, "CanRedo"))
            // Redo dismisses it again; a change after an undo leaves nothing to redo.
            #expect(try await fixture.gdbus(window, "Redo").status == 0)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            #expect(try await fixture.gdbus(window, "Undo").status == 0)
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            #expect(try await !flag(fixture, window, "CanRedo"))
            let refused = try await fixture.gdbus(window, "Redo")
            #expect(refused.status != 0 && refused.stderr.contains("org.navsession.Error.NothingToRedo"), "\(refused)")
        }
    }

    @Test func undoOfATabSwitchAndOfALogOutWithDbusSendRestoresTheSameModels() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let loggedIn = try await models(fixture, window)
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            #expect(try await fixture.windowProperty(window, "UndoLabel") == .string("Undo switch to Settings"))
            #expect(try await fixture.dbusSendVersion(window, "Undo").version != nil)
            #expect(try await models(fixture, window) == loggedIn)
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("home"))
            // Log out (the tabs finish), then undo: the tabs and the detail come back as themselves.
            _ = try await fixture.window(window, "SwitchModel", [.string("login"), .noParams])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            #expect(try await fixture.dbusSendVersion(window, "Undo").version != nil)
            #expect(try await models(fixture, window) == loggedIn)
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("detail"))
        }
    }

    @Test func aMarkOnAModelTheUndoWouldCloseRefusesItAsPrevented() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "Protect", [.uint64(0), .string("unsaved"), .string("")])
            let version = try await fixture.version(window)
            let refused = try await fixture.gdbus(window, "Undo")
            #expect(refused.status != 0 && refused.stderr.contains("org.navsession.Error.Prevented"), "\(refused)")
            #expect(try await fixture.version(window) == version)
        }
    }

    @Test func whatCanBeUndoneAndRedoneSurvivesSIGKILLAndTheUndoJournalLineReplays() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            _ = try await fixture.window(window, "Undo")
            let state = try await fixture.window(window, "GetState").first?.string
            try await fixture.kill()
            try await fixture.relaunch()
            #expect(try await fixture.window(window, "GetState").first?.string == state)
            let canUndo = try await flag(fixture, window, "CanUndo")
            let canRedo = try await flag(fixture, window, "CanRedo")
            #expect(canUndo && canRedo)
            #expect(try await fixture.windowProperty(window, "UndoLabel") == .string("Undo open Detail"))
            _ = try await fixture.window(window, "Redo")
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("about"))
        }
    }

    @Test func undoWithNothingToUndoIsNothingToUndo() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            #expect(try await !flag(fixture, window, "CanUndo"))
            #expect(try await fixture.windowProperty(window, "UndoLabel") == .string(""))
            let refused = try await fixture.dbusSendVersion(window, "Undo")
            #expect(refused.version == nil && refused.error.contains("org.navsession.Error.NothingToUndo"), "\(refused)")
        }
    }
}
