import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// Every Window1 method at least once, each with its effect checked (version +1, routes, properties).
@Suite(.serialized) struct Window1MethodTests {
    /// The screens of the window's route view (GetRoutes), e.g. ["detail"] or ["detail", "editor"].
    static func routeScreens(_ fixture: DaemonFixture, _ window: String) async throws -> [String] {
        let text = try await fixture.window(window, "GetRoutes").first?.string
        let routes = try #require(try json(text) as? [[String: Any]])
        return routes.compactMap { $0["screen"] as? String }
    }

    /// Runs a command with the Swift client and checks it bumped the version by exactly one.
    static func step(
        _ fixture: DaemonFixture, _ window: String, _ member: String, _ arguments: [Value] = []
    ) async throws {
        let before = try await fixture.version(window)
        let reply = try await fixture.window(window, member, arguments)
        #expect(reply == [.uint64(before + 1)], "\(member) reply")
        #expect(try await fixture.version(window) == before + 1, "\(member) Version property")
    }

    @Test func stackMethodsEditTheHomeStackOneVersionEach() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            try await Self.step(fixture, window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            #expect(try await Self.routeScreens(fixture, window) == ["detail"])
            try await Self.step(fixture, window, "StackSetPath", [.strings(["home", "about", "settings"])])
            #expect(try await Self.routeScreens(fixture, window) == ["about", "settings"])
            try await Self.step(fixture, window, "StackReverse")
            #expect(try await Self.routeScreens(fixture, window) == ["about", "home"])
            try await Self.step(fixture, window, "StackDropLast", [.uint32(1)])
            #expect(try await Self.routeScreens(fixture, window) == ["about"])
            try await Self.step(fixture, window, "StackSetRoot", [.string("profile"), .params(["edit": "1"]), .boolean(false)])
            #expect(try await Self.routeScreens(fixture, window) == ["about"])
            let models = try await fixture.models(window)
            #expect(models.contains { ($0["screen"] as? String) == "profile" }, "\(models)")
            try await Self.step(fixture, window, "StackDropToRoot")
            #expect(try await Self.routeScreens(fixture, window) == [])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("profile"))
        }
    }

    @Test func presentAndDismissMethodsWithGdbus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            // Each call returns "(uint64 <previous + 1>,)".
            func gdbus(_ member: String, _ arguments: [String] = []) async throws -> Bool {
                let before = try await fixture.version(window)
                let result = try await fixture.run(
                    "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                              "--method", "org.navsession.Window1.\(member)"] + arguments)
                #expect(result.status == 0, "\(member): \(result)")
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(uint64 \(before + 1),)"
            }
            #expect(try await gdbus("Present", ["sheet+stack", "editor", "{'id': '7'}"]))
            #expect(try await Self.routeScreens(fixture, window) == ["editor"])
            #expect(try await gdbus("StackAppend", ["detail", "{'id': '8'}"]))
            #expect(try await gdbus("DismissJustFromPresented"))
            #expect(try await Self.routeScreens(fixture, window) == [])
            #expect(try await gdbus("Present", ["cover+stack", "about", "{}"]))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("about"))
            #expect(try await gdbus("Hide"))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            #expect(try await gdbus("PresentAlert", ["Oops", "It broke", "['ok:OK:cancel', 'retry:Retry']"]))
            let alert = try #require(try await fixture.models(window).first { ($0["kind"] as? String) == "alert" })
            let dialog = try #require(alert["dialog"] as? [String: Any])
            #expect(dialog["title"] as? String == "Oops")
            #expect((dialog["actions"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["ok", "retry"])
            #expect(try await gdbus("Dismiss"))
            #expect(try await gdbus("PresentConfirmationDialog", ["Sure?", "", "['yes:Yes:destructive', 'no:No:cancel']", ""]))
            #expect(try await fixture.models(window).contains { ($0["kind"] as? String) == "confirmationDialog" })
            #expect(try await gdbus("Dismiss"))
            #expect(try await fixture.models(window).allSatisfy { ($0["kind"] as? String) != "confirmationDialog" })
        }
    }

    @Test func tabsAndSwitchMethodsWithDbusSend() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            func send(_ member: String, _ arguments: [String]) async throws -> Bool {
                let before = try await fixture.version(window)
                let result = try await fixture.run(
                    "dbus-send", ["--session", "--print-reply=literal", "--dest=\(DaemonFixture.name)", window,
                                  "org.navsession.Window1.\(member)"] + arguments)
                #expect(result.status == 0, "\(member): \(result)")
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "uint64 \(before + 1)"
            }
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string(""))
            #expect(try await send("SwitchModel", ["string:main", "dict:string:string:"]))
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("home"))
            #expect(try await send("TabsSelectItem", ["string:settings"]))
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("settings"))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("settings"))
            #expect(try await send("SwitchModel", ["string:login", "dict:string:string:"]))
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("login"))
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string(""))
        }
    }

    @Test func atVariantsRunFromTheGivenModelWithBusctl() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            func busctl(_ member: String, _ signature: String, _ arguments: [String]) async throws -> Bool {
                let before = try await fixture.version(window)
                let result = try await fixture.run(
                    "busctl", ["--user", "call", DaemonFixture.name, window, "org.navsession.Window1", member, signature]
                        + arguments)
                #expect(result.status == 0, "\(member): \(result)")
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "t \(before + 1)"
            }
            // The settings tab's stack is not on the active branch: StackAppendAt pushes onto it anyway.
            let settings = try await fixture.modelID(window, where: "screen", is: "settings")
            #expect(try await busctl("StackAppendAt", "tsa{ss}", ["\(settings)", "about", "0"]))
            #expect(try await Self.routeScreens(fixture, window) == [])
            _ = try await fixture.window(window, "TabsSelectItem", [.string("settings")])
            #expect(try await Self.routeScreens(fixture, window) == ["about"])
            let about = try await fixture.modelID(window, where: "screen", is: "about")
            #expect(try await busctl("PresentAt", "tssa{ss}", ["\(about)", "sheet", "profile", "1", "edit", "1"]))
            #expect(try await Self.routeScreens(fixture, window) == ["about", "profile"])
            let profile = try await fixture.modelID(window, where: "screen", is: "profile")
            #expect(try await busctl("DismissAt", "t", ["\(profile)"]))
            #expect(try await Self.routeScreens(fixture, window) == ["about"])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "2"])])
            let editor = try await fixture.modelID(window, where: "screen", is: "editor")
            #expect(try await busctl("DismissJustFromPresentedAt", "t", ["\(editor)"]))
            #expect(try await Self.routeScreens(fixture, window) == ["about"])
            #expect(try await busctl("HideAt", "t", ["\(about)"]))
            #expect(try await Self.routeScreens(fixture, window) == [])
            #expect(try await busctl("ExecuteAt", "ts", ["0", #"{"command":"stackAppend","models":[{"screen":"about"}]}"#]))
            #expect(try await Self.routeScreens(fixture, window) == ["about"])
        }
    }

    @Test func rendererReportsApplyOneVersionEach() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "2"])])
            let stack = try await fixture.modelID(window, where: "kind", is: "stack")
            try await Self.step(fixture, window, "ReportPopped", [.uint64(stack), .uint32(1)])
            #expect(try await Self.routeScreens(fixture, window) == ["detail"])
            let tabs = try await fixture.modelID(window, where: "kind", is: "tabs")
            try await Self.step(fixture, window, "ReportTabSelected", [.uint64(tabs), .string("settings")])
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("settings"))
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
            let sheet = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            try await Self.step(fixture, window, "ReportDismissed", [.uint64(sheet)])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("settings"))
            _ = try await fixture.window(window, "PresentAlert", [.string("error"), .string(""), .strings([])])
            let alert = try await fixture.modelID(window, where: "kind", is: "alert")
            try await Self.step(fixture, window, "ReportActionChosen", [.uint64(alert), .string("ok")])
            #expect(try await fixture.models(window).allSatisfy { ($0["kind"] as? String) != "alert" })
        }
    }

    @Test func reportClosedRemovesTheWindow() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let reply = try await fixture.window(window, "ReportClosed")
            #expect(reply == [])
            #expect(try await fixture.session("ListWindows") == [.array(.objectPath, [])])
            let error = await fixture.error { try await fixture.window(window, "GetTree") }
            #expect(error?.name == .unknownObject)
        }
    }

    @Test func readersDescribeTheSameState() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "42"])])
            let state = try #require(try json(try await fixture.window(window, "GetState").first?.string) as? [String: Any])
            #expect(state["format"] as? String == "navsession.window")
            let version = try await fixture.version(window)
            #expect((state["version"] as? NSNumber)?.uint64Value == version)
            let tree = try #require(try await fixture.window(window, "GetTree").first?.string)
            #expect(tree.contains("detail") && tree.contains("home") && tree.contains("settings"), "\(tree)")
            let routes = try await fixture.window(window, "GetRoutes")
            #expect(routes == [.string(#"[{"style":"push","screen":"detail","params":{"id":"42"}}]"#)])
            #expect(try await fixture.windowProperty(window, "Routes") == routes.first)
        }
    }

    @Test func sendMessageEmitsMessageWithPayloadAndSender() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let messages = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Message")
            let model = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            let reply = try await fixture.window(window, "SendMessage", [.uint64(0), .string("ping"), .params(["payload": "hello"])])
            #expect(reply == [])
            let signal = try await first(messages, timeout: .seconds(10)) { _ in true }
            #expect(signal.arguments[0] == .uint64(model))
            #expect(signal.arguments[1] == .string("ping"))
            #expect(signal.arguments[2].keyedEntries["payload"] == .string("hello"))
        }
    }
}

/// Properties of both interfaces through Properties.Get/GetAll, busctl and gdbus, and Session1.Plan.
@Suite(.serialized) struct PropertyTests {
    @Test func windowPropertiesViaGetAllHaveTheContractTypes() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            let reply = try await fixture.bus.call(
                destination: try BusName(DaemonFixture.name), path: try ObjectPath(window), interface: .properties,
                member: try MemberName("GetAll"), arguments: [.string("org.navsession.Window1")], timeout: .seconds(10))
            let all = try #require(reply.first).keyedEntries
            #expect(all["Scene"] == .string("main"))
            #expect(all["Title"] == .string("Home"))
            let version = try await fixture.version(window)
            #expect(all["Version"] == .uint64(version))
            #expect(all["ActiveScreen"] == .string("home"))
            #expect(all["ActiveModel"]?.uint64 != nil)
            #expect(all["Routes"] == .string("[]"))
            #expect(all["SelectedTab"] == .string("home"))
            #expect(all["CanGoBack"] == .boolean(false))
            #expect(all["CanPop"] == .boolean(false))
            #expect(all["CanDismiss"] == .boolean(false))
            #expect(all["PendingDeepLink"] == .string(""))
            #expect(all["PendingNavigation"] == .string(""))
            #expect(all["Protected"] == .string("[]"))
            #expect(all["SettledVersion"] == .uint64(0))
            #expect(all["SettledBy"] == .string(""))
            #expect(all["CanGoForward"] == .boolean(false))  // nothing on the forward list yet
            // The log-in can be undone.
            #expect(all["CanUndo"] == .boolean(true) && all["CanRedo"] == .boolean(false))
            #expect(all["UndoLabel"] == .string("Undo switch to Home"))
            #expect(all["Group"] == .string(""))
            #expect(all["Prepared"] == .string("[]"))
            #expect(all.count == 24, "\(all.keys.sorted())")
        }
    }

    @Test func busctlGetPropertyReadsWindowProperties() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "5"])])
            let result = try await fixture.run(
                "busctl", ["--user", "get-property", DaemonFixture.name, window, "org.navsession.Window1",
                           "Scene", "Title", "Version", "ActiveScreen", "Routes", "SelectedTab"])
            #expect(result.status == 0, "\(result)")
            let version = try await fixture.version(window)
            #expect(
                result.stdout == """
                    s "main"
                    s "Detail"
                    t \(version)
                    s "detail"
                    s "[{\\"style\\":\\"push\\",\\"screen\\":\\"detail\\",\\"params\\":{\\"id\\":\\"5\\"}}]"
                    s "home"

                    """, "\(result)")
            let active = try await fixture.run(
                "busctl", ["--user", "get-property", DaemonFixture.name, window, "org.navsession.Window1", "ActiveModel"])
            let model = try #require(try await fixture.windowProperty(window, "ActiveModel").uint64)
            #expect(active.stdout == "t \(model)\n", "\(active)")
        }
    }

    @Test func gdbusReadsSessionProperties() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", DaemonFixture.session,
                          "--method", "org.freedesktop.DBus.Properties.GetAll", "org.navsession.Session1"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("'Windows': <[objectpath '\(window)']>"), "\(result.stdout)")
            #expect(result.stdout.contains("'Scenes': <['main', 'waiting', 'split']>"), "\(result.stdout)")
            #expect(result.stdout.contains("'Screens': <['"), "\(result.stdout)")
            #expect(result.stdout.contains("'editor'"), "\(result.stdout)")
            #expect(result.stdout.contains("'Version': <uint64 1>"), "\(result.stdout)")
            #expect(result.stdout.contains("'ApplicationId': <'org.navsession.Demo'>"), "\(result.stdout)")
        }
    }

    @Test func sessionVersionCountsOpensAndCloses() async throws {
        try await DaemonFixture.with { fixture in
            #expect(try await fixture.property(DaemonFixture.session, DaemonFixture.sessionInterface, "Version") == .uint64(0))
            let first = try await fixture.openWindow()
            let second = try await fixture.openWindow("waiting")
            _ = try await fixture.session("DismissWindow", [try .path(first)])
            #expect(try await fixture.property(DaemonFixture.session, DaemonFixture.sessionInterface, "Version") == .uint64(3))
            #expect(
                try await fixture.property(DaemonFixture.session, DaemonFixture.sessionInterface, "Windows")
                    == .array(.objectPath, [try .path(second)]))
        }
    }

    @Test func planReturnsTheDocumentedStates() async throws {
        try await DaemonFixture.with { fixture in
            let result = try await fixture.run(
                "busctl", ["--user", "call", DaemonFixture.name, DaemonFixture.session, "org.navsession.Session1", "Plan",
                           "ssbb", #"[{"style":"sheet","screen":"2"},{"style":"cover","screen":"3"}]"#, "[]", "false", "false"])
            #expect(result.status == 0, "\(result)")
            let reply = try await fixture.session(
                "Plan",
                [.string(#"[{"style":"sheet","screen":"2"},{"style":"cover","screen":"3"}]"#), .string("[]"),
                 .boolean(false), .boolean(false)])
            #expect(
                reply == [.string(#"[[{"style":"sheet","screen":"2","withNavigation":false},{"style":"cover","screen":"3","withNavigation":false}],[{"style":"sheet","screen":"2","withNavigation":false}],[]]"#)])
            let oneStep = try await fixture.session(
                "Plan",
                [.string(#"[{"style":"sheet","screen":"2"},{"style":"cover","screen":"3"}]"#), .string("[]"),
                 .boolean(true), .boolean(false)])
            let states = try #require(try json(oneStep.first?.string) as? [[Any]])
            #expect(states.count == 2)
        }
    }

    /// A style the manifest does not declare is not a presentation kind: `InvalidArgs` naming it and the kinds there
    /// are; a declared kind (the demo's `popover`) and the built-in `browser` plan like any presentation.
    @Test func planRefusesAStyleThatIsNoPresentationKindOfTheManifest() async throws {
        try await DaemonFixture.with { fixture in
            let refused = await fixture.error {
                try await fixture.session(
                    "Plan", [.string("[]"), .string(#"[{"style":"modal","screen":"a"}]"#), .boolean(false), .boolean(false)])
            }
            #expect(refused?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs", "\(String(describing: refused))")
            #expect(refused?.message.contains("to_routes: element 0: unknown style 'modal'") == true)
            #expect(refused?.message.contains("popover") == true, "the message names the kinds there are")
            for kind in ["popover", "browser"] {
                let planned = try await fixture.session(
                    "Plan", [.string("[]"), .string(#"[{"style":"\#(kind)","screen":"a"}]"#), .boolean(false), .boolean(false)])
                #expect(planned.first?.string?.contains(#""style":"\#(kind)""#) == true, "\(planned)")
            }
        }
    }
}
