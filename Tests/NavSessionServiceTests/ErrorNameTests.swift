import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// One documented error: the state it needs, the call that triggers it, and the expected name.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    enum Setup: Sendable { case loggedOut, loggedIn, waiting }
    let name: String
    let setup: Setup
    /// A substring the error message must contain ("" for any).
    let message: String
    let trigger: @Sendable (DaemonFixture, String) async throws -> [Value]

    var testDescription: String { name }

    init(
        _ name: String, _ setup: Setup, message: String = "",
        _ trigger: @escaping @Sendable (DaemonFixture, String) async throws -> [Value]
    ) {
        self.name = name
        self.setup = setup
        self.message = message
        self.trigger = trigger
    }

    static func url(_ url: String) -> @Sendable (DaemonFixture, String) async throws -> [Value] {
        { fixture, _ in try await fixture.session("OpenURL", [.string(url)]) }
    }

    static let navsession = "org.navsession.Error."
    static let standard = "org.freedesktop.DBus.Error."

    static let all: [ErrorCase] = [
        ErrorCase(navsession + "NoStack", .waiting) { f, w in
            try await f.window(w, "StackAppend", [.string("about"), .noParams])
        },
        ErrorCase(navsession + "AlreadyAtRoot", .loggedOut) { f, w in try await f.window(w, "StackDropLast", [.uint32(1)]) },
        ErrorCase(navsession + "NothingToDismiss", .loggedOut) { f, w in try await f.window(w, "Dismiss") },
        ErrorCase(navsession + "NothingToGoBack", .loggedIn) { f, w in try await f.window(w, "GoBack") },
        ErrorCase(navsession + "RouteNotFound", .loggedIn, message: "profile") { f, w in
            try await f.window(w, "GoBackTo", [.string("profile")])
        },
        ErrorCase(navsession + "UnknownTab", .loggedIn, message: "nope") { f, w in
            try await f.window(w, "TabsSelectItem", [.string("nope")])
        },
        ErrorCase(navsession + "NoTabs", .loggedOut) { f, w in try await f.window(w, "TabsSelectItem", [.string("home")]) },
        ErrorCase(navsession + "NoSwitched", .waiting) { f, w in
            try await f.window(w, "SwitchModel", [.string("about"), .noParams])
        },
        ErrorCase(navsession + "UnknownModel", .loggedIn, message: "999999") { f, w in
            try await f.window(w, "StackAppendAt", [.uint64(999_999), .string("about"), .noParams])
        },
        ErrorCase(navsession + "UnknownAction", .loggedIn, message: "teleport") { f, w in
            _ = try await f.window(w, "PresentAlert", [.string("error"), .string(""), .strings([])])
            let alert = try await f.modelID(w, where: "kind", is: "alert")
            return try await f.window(w, "ReportActionChosen", [.uint64(alert), .string("teleport")])
        },
        ErrorCase(navsession + "StaleReport", .loggedIn) { f, w in
            let stack = try await f.modelID(w, where: "kind", is: "stack")
            return try await f.window(w, "ReportPopped", [.uint64(stack), .uint32(5)])
        },
        ErrorCase(navsession + "UnknownPresentationKind", .loggedIn, message: "hologram") { f, w in
            try await f.window(w, "Present", [.string("hologram"), .string("about"), .noParams])
        },
        ErrorCase(navsession + "UnknownScene", .loggedOut, message: "nowhere") { f, _ in
            try await f.session("OpenWindow", [.string("nowhere"), .noParams])
        },
        ErrorCase(navsession + "UnknownRoute", .loggedIn, message: "", url("navsession-demo://nowhere/at/all")),
        ErrorCase(navsession + "BadParameter", .loggedIn, message: "", url("navsession-demo://detail/42?edit=maybe")),
        // The window checks every screen against the manifest, whichever way it came in.
        ErrorCase(navsession + "InvalidSpec", .loggedIn, message: "requires parameter 'id'") { f, w in
            try await f.window(w, "StackAppend", [.string("detail"), .noParams])
        },
        ErrorCase(navsession + "UnknownScreen", .loggedIn, message: "did you mean 'detail'?") { f, w in
            try await f.window(w, "StackAppend", [.string("detial"), .noParams])
        },
        ErrorCase(navsession + "MalformedURL", .loggedIn, message: "", url("no scheme at all")),
        ErrorCase(navsession + "InvalidBatch", .loggedIn) { f, w in
            try await f.session("Apply", [try .path(w), .string("[{")])
        },
        ErrorCase(standard + "UnknownObject", .loggedIn) { f, _ in
            try await f.window("/org/navsession/Session1/window/999", "GetTree")
        },
        ErrorCase(standard + "InvalidArgs", .loggedIn, message: "'sa{ss}' but received 's'") { f, w in
            try await f.window(w, "StackAppend", [.string("about")])
        },
        ErrorCase(standard + "InvalidArgs", .loggedIn, message: "'ssass' but received 'ssas'") { f, w in
            try await f.window(w, "PresentConfirmationDialog", [.string("logout"), .string(""), .strings([])])
        },
        ErrorCase(navsession + "InvalidCount", .loggedIn, message: "at least 1") { f, w in
            try await f.window(w, "StackDropLast", [.uint32(0)])
        },
        ErrorCase(standard + "LimitsExceeded", .loggedIn, message: "", url("navsession-demo://detail/" + String(repeating: "7", count: 8200))),
        ErrorCase(standard + "UnknownProperty", .loggedIn, message: "Nope") { f, w in
            try await f.bus.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(w), interface: .properties,
                member: try MemberName("Get"), arguments: [.string("org.navsession.Window1"), .string("Nope")])
        },
        ErrorCase(standard + "PropertyReadOnly", .loggedIn, message: "Title") { f, w in
            try await f.bus.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(w), interface: .properties,
                member: try MemberName("Set"),
                arguments: [.string("org.navsession.Window1"), .string("Title"), .variant(.string("Hacked"))])
        },
        ErrorCase(standard + "UnknownMethod", .loggedIn, message: "Teleport") { f, w in
            try await f.window(w, "Teleport")
        },
        ErrorCase(standard + "NotSupported", .loggedIn, message: "dance") { f, _ in
            try await f.call(
                DaemonFixture.applicationPath, "org.freedesktop.Application", "ActivateAction",
                [.string("dance"), .array(.variant, []), .noPlatformData])
        },
        ErrorCase(navsession + "UnknownGuard", .loggedIn, message: "nope") { f, _ in
            try await f.session("RegisterGuard", [.string("nope")])
        },
        ErrorCase(navsession + "UnknownClosedWindow", .loggedIn, message: "99") { f, _ in
            try await f.session("ReopenWindow", [.string("99")])
        },
        ErrorCase(navsession + "GuardTaken", .loggedIn, message: "account") { f, _ in
            let provider = try await TestGuardProvider.start(f, .allow)
            do {
                let reply = try await f.session("RegisterGuard", [.string("account")])
                await provider.stop()
                return reply
            } catch {
                await provider.stop()
                throw error
            }
        },
        ErrorCase(navsession + "Denied", .loggedIn, message: "locked") { f, w in
            let provider = try await TestGuardProvider.start(f, .deny("locked"))
            do {
                let reply = try await f.window(w, "StackAppend", [.string("profile"), .noParams])
                await provider.stop()
                return reply
            } catch {
                await provider.stop()
                throw error
            }
        },
    ]
}

@Suite(.serialized) struct ErrorNameTests {
    @Test(arguments: ErrorCase.all)
    func documentedErrorIsReturnedAndTheDaemonKeepsAnswering(_ errorCase: ErrorCase) async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow(errorCase.setup == .waiting ? "waiting" : "main")
            if errorCase.setup == .loggedIn { try await fixture.logIn(window) }
            let before = try await fixture.window(window, "GetState")
            let error = await fixture.error { try await errorCase.trigger(fixture, window) }
            #expect(error?.name.rawValue == errorCase.name, "\(String(describing: error))")
            #expect(errorCase.message.isEmpty || error?.message.contains(errorCase.message) == true, "\(String(describing: error))")
            // Still answering, and (except for a deliberately presented alert) nothing changed.
            let after = try await fixture.window(window, "GetState")
            if !errorCase.name.hasSuffix("UnknownAction") { #expect(after == before) }
            #expect(try await fixture.session("ListWindows").first?.arrayElements?.count == 1)
        }
    }

    @Test func wrongSignatureWithDbusSendNamesExpectedAndReceived() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.run(
                "dbus-send", ["--session", "--print-reply", "--dest=\(DaemonFixture.name)", window,
                              "org.navsession.Window1.TabsSelectItem", "uint32:3"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
            #expect(result.stderr.contains("'s'") && result.stderr.contains("'u'"), "\(result)")
            #expect(try await fixture.window(window, "GetRoutes") == [.string("[]")])
        }
    }

    @Test func applyFailureNamesTheFailingCommandAndAppliesNothing() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let before = try await fixture.version(window)
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                          "--method", "org.navsession.Session1.Apply", window,
                          #"[{"command":"stackAppend","models":[{"screen":"about"}]},{"command":"tabsSelectItem","tab":"nope"}]"#])
            #expect(result.stderr.contains("org.navsession.Error.UnknownTab"), "\(result)")
            #expect(result.stderr.contains("command 1:"), "\(result)")
            #expect(try await fixture.version(window) == before)
            #expect(try await fixture.window(window, "GetRoutes") == [.string("[]")])
        }
    }
}
