import NavSessionClient
import NavSessionTesting
import NavigationCore
import Testing

/// Protected models through ``WindowProxy``: `protect(_:reason:dialog:)`, `unprotect(_:)` and
/// ``NavSessionError/prevented(_:)`` (Docs/guards.md, "Protected models").
@Suite(.timeLimit(.minutes(2)))
struct ProtectionClientTests {
    @Test func aProtectedModelRefusesAChangeWithPreventedAndNothingChanges() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            let marked = try await window.protect(reason: "unsaved text")
            #expect(try await window.getStateJSON().contains(#""reason":"unsaved text""#))
            do {
                try await window.switchModel("main")
                Issue.record("switchModel should be refused while login is protected")
            } catch {
                guard let error = error as? NavSessionError, case .prevented(let message) = error else {
                    Issue.record("expected prevented, got \(error)")
                    return
                }
                #expect(message.contains("unsaved text"), "\(message)")
            }
            #expect(try await window.version == marked)
            #expect(try await window.activeScreen == "login")
        }
    }

    @Test func unprotectByTheOwnerLetsTheChangeThrough() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.protect(reason: "unsaved text", dialog: "discardChanges")
            let unmarked = try await window.unprotect()
            #expect(!(try await window.getStateJSON().contains("\"protection\"")))
            #expect(try await window.switchModel("main") > unmarked)
        }
    }

    @Test func unprotectOfAnotherClientsMarkThrowsPrevented() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            try await window.protect(reason: "mine")
            let other = try await daemon.connectClient()
            let theirs = try other.window(window.path)
            do {
                try await theirs.unprotect()
                Issue.record("another client's unprotect should be refused")
            } catch {
                guard let error = error as? NavSessionError, case .prevented = error else {
                    Issue.record("expected prevented, got \(error)")
                    await other.close()
                    return
                }
            }
            await other.close()
            #expect(try await window.getStateJSON().contains(#""reason":"mine""#))
        }
    }

    @Test func protectWithAnUndeclaredDialogThrowsUnknownDialog() async throws {
        try await NavSessionTestDaemon.withDaemon { daemon in
            let window = try await daemon.session.openWindow(scene: "main")
            do {
                try await window.protect(reason: "x", dialog: "noSuchDialog")
                Issue.record("an undeclared dialog should be refused")
            } catch {
                guard let error = error as? NavSessionError, case .unknownDialog = error else {
                    Issue.record("expected unknownDialog, got \(error)")
                    return
                }
            }
        }
    }
}
