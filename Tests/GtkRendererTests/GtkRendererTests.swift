import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import Testing

/// The reference GTK renderer (Examples/gtk-renderer) against the real daemon, under Xvfb.
///
/// The daemon is driven with `dbus-send`; after each step the renderer's Describe (read from its
/// widgets) must show the daemon's state. Then the tests act as the user with Click and check that the
/// daemon followed the renderer's reports.
@Suite(.serialized, .enabled(Comment(rawValue: GtkEnvironment.skipReason)) { await GtkEnvironment.available() })
struct GtkRendererTests {
    static let session = RendererHarness.session
    static let window1 = "/org/navsession/Session1/window/1"
    static let session1 = "org.navsession.Session1"
    static let window1Interface = "org.navsession.Window1"

    private func with(_ body: (RendererHarness) async throws -> Void) async throws {
        let harness = try await RendererHarness.start()
        do {
            try await body(harness)
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    private func w(_ member: String) -> String { "\(Self.window1Interface).\(member)" }

    /// The editor's declared appearance hides the back button and the tab bar; SetAppearance and
    /// a tab-bar rule change them in place (Docs/renderers.md, "Appearance").
    @Test func showsAppearanceAndTheTabBarRule() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:editor", "dict:string:string:id,7")
            try await h.waitUntilScreenMatches("editor pushed")
            var window = try await h.described(1)
            var chrome = try #require(window["chrome"] as? [String: Any])
            #expect(chrome["backButton"] as? Bool == false && chrome["titleDisplayMode"] as? String == "inline")
            #expect((window["tabs"] as? [[String: Any]])?.first?["switcher"] as? Bool == false)
            #expect((window["clickable"] as? [String])?.contains("window/1/back") == false)

            try await h.send(Self.window1, w("SetAppearance"), "string:", #"string:{"tabBar":true,"backButton":true}"#, "boolean:false")
            try await h.waitUntilScreenMatches("appearance changed")
            window = try await h.described(1)
            chrome = try #require(window["chrome"] as? [String: Any])
            #expect(chrome["backButton"] as? Bool == true)
            #expect((window["tabs"] as? [[String: Any]])?.first?["switcher"] as? Bool == true)

            // The home stack hides the tab bar while not at its root: hidden wins over the editor's tabBar.
            try await h.send(
                Self.window1, w("Apply"), #"string:[{"command":"setTabBarRule","hiddenWhenNotRoot":true,"animated":false}]"#,
                "dict:string:string:")
            try await h.waitUntilScreenMatches("tab-bar rule")
            window = try await h.described(1)
            #expect((window["tabs"] as? [[String: Any]])?.first?["switcher"] as? Bool == false)
        }
    }

    /// Mouse button 8 and Alt+Left go back, button 9, Alt+Right and the header's forward button
    /// (shown while CanGoForward) go forward; the daemon re-creates the popped detail each time.
    @Test func mouseButtonsAndAltArrowsGoBackAndForward() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.waitUntilScreenMatches("detail pushed")
            let steps: [(click: String, screen: String)] = [
                ("window/1/mouse/8", "home"), ("window/1/mouse/9", "detail"), ("window/1/key/alt-left", "home"),
                ("window/1/key/alt-right", "detail"), ("window/1/back", "home"), ("window/1/forward", "detail"),
            ]
            for step in steps {
                try await h.click(step.click)
                try await h.waitForDaemon("\(step.click) shows \(step.screen)") {
                    try await h.property(Self.window1, "ActiveScreen")?.string == step.screen
                }
                let screen = try await h.waitUntilScreenMatches("after \(step.click)")
                #expect(screen.first?.canGoForward == (step.screen == "home"), "\(step.click)")
            }
            let window = try await h.described(1)
            #expect((window["clickable"] as? [String])?.contains("window/1/forward") == false)
        }
    }

    /// Ctrl+Z undoes the window's last change — a dismissed sheet comes back as the same model — and Ctrl+Shift+Z
    /// redoes it; the renderer shows each state whole.
    @Test func ctrlZUndoesADismissalToTheSameSheetAndCtrlShiftZRedoesIt() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("Present"), "string:sheet+stack", "string:editor", "dict:string:string:id,7")
            try await h.waitUntilScreenMatches("editor presented")
            let editor = try await h.property(Self.window1, "ActiveModel")
            try await h.send(Self.window1, w("Dismiss"))
            try await h.waitUntilScreenMatches("editor dismissed")
            try await h.click("window/1/key/ctrl-z")
            try await h.waitForDaemon("Ctrl+Z brings the editor back") {
                try await h.property(Self.window1, "ActiveModel") == editor
            }
            try await h.waitUntilScreenMatches("after Ctrl+Z")
            try await h.click("window/1/key/ctrl-shift-z")
            try await h.waitForDaemon("Ctrl+Shift+Z dismisses it again") {
                try await h.property(Self.window1, "ActiveScreen")?.string == "home"
            }
            try await h.waitUntilScreenMatches("after Ctrl+Shift+Z")
        }
    }

    @Test func followsTheDemoFlow() async throws {
        try await with { h in
            try await h.waitUntilScreenMatches("no window yet")
            #expect(try await h.shownScreen().isEmpty)

            // Open the main window: logged out (switched root showing the login stack).
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            var screen = try await h.waitUntilScreenMatches("open window")
            #expect(screen.count == 1)
            var window = try await h.described(1)
            #expect(window["path"] as? String == Self.window1)
            #expect(((window["stacks"] as? [[String: Any]])?.first?["visible"] as? [String: Any])?["screen"] as? String == "login")

            // Log in: tabs home and settings.
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.waitUntilScreenMatches("log in")
            window = try await h.described(1)
            let tabs = try #require((window["tabs"] as? [[String: Any]])?.first)
            #expect((tabs["tabs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["home", "settings"])
            #expect(tabs["selected"] as? String == "home")

            // Push a detail: the back button becomes sensitive.
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            screen = try await h.waitUntilScreenMatches("push detail")
            #expect(screen.first?.canGoBack == true)
            #expect(screen.first?.title == "Detail")

            // A stacked sheet: a modal window transient for the main window.
            try await h.send(Self.window1, w("Present"), "string:sheet+stack", "string:editor", "dict:string:string:id,42")
            try await h.waitUntilScreenMatches("present sheet")
            window = try await h.described(1)
            let sheet = try #require((window["modals"] as? [[String: Any]])?.first)
            #expect(sheet["transientFor"] as? String == "window/1")
            #expect(sheet["modal"] as? Bool == true)
            #expect(sheet["title"] as? String == "Editor")

            // An alert on top of the sheet, its buttons styled by role.
            try await h.send(
                Self.window1, w("PresentAlert"), "string:Saved", "string:All done",
                "array:string:ok:OK:cancel,del:Delete:destructive")
            try await h.waitUntilScreenMatches("present alert")
            window = try await h.described(1)
            let alert = try #require((window["dialogs"] as? [[String: Any]])?.first)
            #expect(alert["message"] as? String == "All done")
            #expect((alert["transientFor"] as? String)?.hasPrefix("window/1/modal/") == true)
            let buttons = alert["buttons"] as? [[String: Any]] ?? []
            #expect(buttons.first { $0["action"] as? String == "del" }?["styles"] as? [String] == ["destructive-action"])
            #expect(buttons.first { $0["action"] as? String == "ok" }?["role"] as? String == "cancel")
            #expect(window["top"] as? String == alert["id"] as? String)

            // Dismissed by the daemon.
            try await h.send(Self.window1, w("Dismiss"))
            try await h.waitUntilScreenMatches("dismiss alert")

            // A deep link: the sheet goes, the settings tab is selected and the profile pushed, as one change.
            try await h.send(Self.session, "\(Self.session1).OpenURL", "string:navsession-demo://settings/profile?edit=1")
            screen = try await h.waitUntilScreenMatches("deep link")
            #expect(screen.first?.modals.isEmpty == true)
            #expect(screen.first?.tabs.values.first == "settings")
            #expect(screen.first?.title == "Profile")

            // A second window (a deep link that always opens one).
            try await h.send(Self.session, "\(Self.session1).OpenURL", "string:navsession-demo://waiting?reason=x")
            screen = try await h.waitUntilScreenMatches("second window")
            #expect(screen.count == 2)

            // Log out through the demo's confirmation dialog, confirmed by the user.
            try await h.send(Self.window1, w("PresentConfirmationDialog"), "string:logout", "string:", "array:string:", "string:")
            try await h.waitUntilScreenMatches("log-out dialog")
            window = try await h.described(1)
            let dialog = try #require((window["dialogs"] as? [[String: Any]])?.first)
            #expect(dialog["kind"] as? String == "confirmationDialog")
            let model = try #require(dialog["model"] as? NSNumber)
            try await h.click("window/1/dialog/\(model)/action/logout")
            try await h.waitForDaemon("logged out") {
                try await h.property(Self.window1, "ActiveScreen")?.string == "login"
            }
            try await h.waitUntilScreenMatches("logged out")

            // The daemon closes the second window.
            let second = try #require(try await h.windows().last)
            try await h.send(Self.session, "\(Self.session1).DismissWindow", "objpath:\(second)")
            screen = try await h.waitUntilScreenMatches("second window closed")
            #expect(screen.count == 1)
        }
    }

    @Test func reportsWhatTheUserDoes() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.waitUntilScreenMatches("detail pushed")

            // Back: goBack at the version shown; the daemon pops, the screen follows.
            try await h.click("window/1/back")
            try await h.waitForDaemon("popped to home") {
                try await h.property(Self.window1, "ActiveScreen")?.string == "home"
            }
            var screen = try await h.waitUntilScreenMatches("after back")
            #expect(screen.first?.canGoBack == false)
            await #expect(throws: (any Error).self) { try await h.click("window/1/back") }  // insensitive now

            // A tab click reports the selection; the switcher shows it only once the daemon says so.
            try await h.click("window/1/tab/settings")
            try await h.waitForDaemon("settings selected") {
                try await h.property(Self.window1, "SelectedTab")?.string == "settings"
            }
            screen = try await h.waitUntilScreenMatches("after tab click")
            #expect(screen.first?.tabs.values.first == "settings")

            // Escape on a sheet: goBack, which dismisses it.
            try await h.send(Self.window1, w("Present"), "string:sheet", "string:editor", "dict:string:string:id,7")
            try await h.waitUntilScreenMatches("sheet")
            try await h.click("window/1/escape")
            try await h.waitForDaemon("sheet dismissed") {
                try await h.property(Self.window1, "CanDismiss")?.bool == false
            }
            try await h.waitUntilScreenMatches("after escape")

            // Closing a sheet's window: ReportDismissed too.
            try await h.send(Self.window1, w("Present"), "string:cover", "string:about", "dict:string:string:")
            screen = try await h.waitUntilScreenMatches("cover")
            let cover = try #require(screen.first?.modals.first)
            #expect(cover.value == "fullScreenCover")
            try await h.click("window/1/modal/\(cover.key)/close")
            try await h.waitForDaemon("cover dismissed") {
                try await h.property(Self.window1, "CanDismiss")?.bool == false
            }
            try await h.waitUntilScreenMatches("after closing the cover")

            // An alert button: ReportActionChosen.
            try await h.send(
                Self.window1, w("PresentAlert"), "string:Delete?", "string:", "array:string:keep:Keep:cancel,del:Delete:destructive")
            screen = try await h.waitUntilScreenMatches("alert")
            let alert = try #require(screen.first?.dialogs.first?.key)
            try await h.click("window/1/dialog/\(alert)/action/del")
            try await h.waitForDaemon("alert answered") {
                try await h.property(Self.window1, "CanDismiss")?.bool == false
            }
            try await h.waitUntilScreenMatches("after the alert")

            // Escape on an alert chooses its cancel action.
            try await h.send(Self.window1, w("PresentAlert"), "string:Sure?", "string:", "array:string:no:No:cancel,yes:Yes")
            try await h.waitUntilScreenMatches("second alert")
            try await h.click("window/1/escape")
            try await h.waitForDaemon("alert cancelled") {
                try await h.property(Self.window1, "CanDismiss")?.bool == false
            }
            try await h.waitUntilScreenMatches("after escape on the alert")

            // Closing the GTK window: ReportClosed; the window goes from the daemon, then from the screen.
            try await h.click("window/1/close")
            try await h.waitForDaemon("window closed") { try await h.windows().isEmpty }
            let shown = try await h.waitUntilScreenMatches("after close")
            #expect(shown.isEmpty)
        }
    }

    /// Docs/guards.md: typing protects the editor; Escape does not report a dismissal, a change from elsewhere shows
    /// the "Discard changes?" dialog, and "Discard" completes that change.
    @Test func unsavedTextInTheEditorShowsTheDiscardDialogAndDiscardCompletesTheChange() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.send(Self.window1, w("Present"), "string:sheet", "string:editor", "dict:string:string:id,7")
            var screen = try await h.waitUntilScreenMatches("editor sheet")
            let sheet = try #require(screen.first?.modals.first?.key)

            try await h.click("window/1/modal/\(sheet)/type/unsaved words")
            try await h.waitForDaemon("the editor protected") {
                try await h.property(Self.window1, "Protected")?.string?.contains("unsaved text") == true
            }
            // Another client goes back to the root: refused, and the dialog appears in the window instead.
            await #expect(throws: (any Error).self) {
                _ = try await h.call(RendererHarness.daemonName, Self.window1, Self.window1Interface, "GoBackToRoot")
            }
            screen = try await h.waitUntilScreenMatches("the discard dialog")
            let dialog = try #require(screen.first?.dialogs.first?.key)
            try await h.click("window/1/dialog/\(dialog)/action/discard")
            try await h.waitForDaemon("back at the root") {
                try await h.property(Self.window1, "Routes")?.string == "[]"
            }
            screen = try await h.waitUntilScreenMatches("after discard")
            #expect(screen.first?.modals.isEmpty == true)
            #expect(screen.first?.dialogs.isEmpty == true)
        }
    }

    // MARK: Back in two phases (Docs/guards.md, "Back gestures")

    /// The renderer hook's Swipe: one phase of a drag on window 1's content, through the gesture's own code;
    /// returns the swipe's state after it.
    private func swipe(_ h: RendererHarness, _ phase: String, _ x: Double) async throws -> String? {
        let reply = try await h.call(
            RendererHarness.rendererName, RendererHarness.rendererPath, "org.navsession.GtkRenderer1", "Swipe",
            [.string("window/1"), .string(phase), .double(x)])
        return reply.first?.string
    }

    /// Window 1's swipe as Describe reads it: `offset` (from the content widget), `active`, `state`.
    private func swipeShown(_ h: RendererHarness) async throws -> [String: Any] {
        try #require(try await h.described(1)["swipe"] as? [String: Any])
    }

    /// How often BeginBack refused a back in the renderer.
    private func backRefused(_ h: RendererHarness) async throws -> Int? {
        try await h.describe()["backRefused"] as? Int
    }

    /// A guard provider on the test bus for the demo's `account` guard (it covers `profile`) that denies every
    /// question; the caller closes its bus.
    private func denyingProvider(_ h: RendererHarness) async throws -> Bus {
        let bus = try await Bus.connect(.address(h.daemon.address))
        do {
            typealias A = Interface.Argument
            let decide = try Interface.Method(
                "Decide",
                inputs: [
                    A("guard", .string), A("window", .objectPath), A("version", .uint64), A("cause_json", .string),
                    A("entered_json", .string), A("left_json", .string),
                ],
                outputs: [A("verdict", .string), A("reason", .string), A("redirect_json", .string)]
            ) { _ in
                [.string("deny"), .string("account locked"), .string("")]
            }
            try await bus.export(
                [try Interface("org.navsession.GuardProvider1", methods: [decide])],
                at: try ObjectPath("/org/navsession/GuardProvider1"))
            _ = try await bus.call(
                destination: try BusName(RendererHarness.daemonName), path: try ObjectPath(Self.session),
                interface: try InterfaceName(Self.session1), member: try MemberName("RegisterGuard"),
                arguments: [.string("account")], timeout: Liveness.bound(.seconds(10)))
        } catch {
            await bus.close()
            throw error
        }
        return bus
    }

    /// A back a guard provider denies never moves the page: Escape asks BeginBack and commits nothing, and a
    /// left-edge swipe never lets the page follow the finger; neither resynchronises. Once the provider is gone
    /// (the guard's onAbsent allows), a swipe past a third of the width goes back (CommitBack).
    @Test func aBackAGuardProviderDeniesMovesNoPageOnEscapeOrSwipe() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("TabsSelectItem"), "string:settings")
            try await h.send(Self.window1, w("StackAppend"), "string:profile", "dict:string:string:")
            try await h.waitUntilScreenMatches("profile pushed")
            #expect(try await h.property(Self.window1, "CanGoBack")?.bool == true)

            let provider = try await denyingProvider(h)
            do {
                // The daemon asks the provider in the background for CanGoBack; the back button follows.
                try await h.waitForDaemon("CanGoBack false: the provider denies leaving profile") {
                    try await h.property(Self.window1, "CanGoBack")?.bool == false
                }
                try await h.waitUntilScreenMatches("the provider denies back")
                let version = try #require(try await h.property(Self.window1, "Version")?.uint64)
                #expect(try await backRefused(h) == 0)

                // Escape: BeginBack is refused, nothing is committed.
                try await h.click("window/1/escape")
                try await h.waitForDaemon("Escape refused by BeginBack") { try await backRefused(h) == 1 }

                // A drag from the left edge: BeginBack is asked at the first movement to the right; refused, the
                // page never follows the finger, and the rest of the drag is ignored.
                #expect(try await swipe(h, "begin", 4) == "tracking")
                #expect(try await swipe(h, "update", 300) == "asking")
                try await h.waitForDaemon("the swipe refused by BeginBack") { try await backRefused(h) == 2 }
                var shown = try await swipeShown(h)
                #expect(shown["state"] as? String == "refused" && shown["offset"] as? Double == 0, "\(shown)")
                #expect(try await swipe(h, "update", 400) == "refused")
                #expect(try await swipeShown(h)["offset"] as? Double == 0)
                #expect(try await swipe(h, "end", 400) == "idle")

                // A whole swipe past a third of the width: the hook answers once BeginBack has decided it.
                let outcome = try await h.call(
                    RendererHarness.rendererName, RendererHarness.rendererPath, "org.navsession.GtkRenderer1",
                    "SwipeBack", [.string("window/1"), .double(400)])
                #expect(outcome.first?.string == "refused")
                #expect(try await backRefused(h) == 3)

                // Nothing moved: the daemon's window and the renderer's page are where they were.
                #expect(try await h.property(Self.window1, "Version")?.uint64 == version)
                #expect(try await h.property(Self.window1, "ActiveScreen")?.string == "profile")
                let screen = try await h.waitUntilScreenMatches("after the refused backs")
                #expect(screen.first?.title == "Profile")
                let window = try await h.described(1)
                let visible = (window["stacks"] as? [[String: Any]] ?? []).compactMap {
                    ($0["visible"] as? [String: Any])?["screen"] as? String
                }
                #expect(visible.contains("profile"), "\(visible)")
                shown = try #require(window["swipe"] as? [String: Any])
                #expect(shown["offset"] as? Double == 0 && shown["active"] as? Bool == false, "\(shown)")
                // A refusal is the user's answer, not a state the renderer got wrong: no resynchronisation.
                #expect(try await h.resyncs().values.reduce(0, +) == 0)
                #expect(h.rendererLog.contains("account locked"))
            } catch {
                await provider.close()
                throw error
            }

            // The provider leaves: the guard's onAbsent allows, and the same swipe goes back.
            await provider.close()
            try await h.waitForDaemon("CanGoBack true once the provider left") {
                try await h.property(Self.window1, "CanGoBack")?.bool == true
            }
            try await h.waitUntilScreenMatches("the provider left")
            let outcome = try await h.call(
                RendererHarness.rendererName, RendererHarness.rendererPath, "org.navsession.GtkRenderer1", "SwipeBack",
                [.string("window/1"), .double(400)])
            #expect(outcome.first?.string == "committed")
            try await h.waitForDaemon("the swipe went back to settings") {
                try await h.property(Self.window1, "ActiveScreen")?.string == "settings"
            }
            try await h.waitUntilScreenMatches("after the allowed swipe")
            #expect(try await swipeShown(h)["offset"] as? Double == 0)
            #expect(try await backRefused(h) == 3)
            #expect(try await h.resyncs().values.reduce(0, +) == 0)
        }
    }

    /// A presentation opens with its transition; the built-in browser shows its URL.
    @Test func aPresentationOpensWithItsTransitionAndTheBrowserShowsItsURL() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("Show"), "string:compose", "dict:string:string:to,ann")
            try await h.waitUntilScreenMatches("compose sheet")
            var window = try await h.described(1)
            let sheet = try #require((window["modals"] as? [[String: Any]])?.first)
            #expect(sheet["style"] as? String == "sheet")
            #expect(sheet["transition"] as? String == "slide")
            try await h.send(Self.window1, w("Dismiss"))
            try await h.send(Self.window1, w("Present"), "string:browser", "string:https://example.org/help", "dict:string:string:")
            let screen = try await h.waitUntilScreenMatches("browser")
            #expect(screen.first?.modals.values.sorted() == ["browser"])
            window = try await h.described(1)
            let browser = try #require((window["modals"] as? [[String: Any]])?.first)
            #expect(browser["style"] as? String == "browser")
        }
    }

    @Test func showsAKeptBranchAgainAfterLoggingOutAndIn() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.send(Self.window1, w("Present"), "string:sheet", "string:editor", "dict:string:string:id,42")
            try await h.waitUntilScreenMatches("detail and editor")
            // Logged out: the kept main (with its sheet) is not on screen.
            try await h.send(Self.window1, w("SwitchModel"), "string:login", "dict:string:string:")
            var screen = try await h.waitUntilScreenMatches("logged out, main kept")
            #expect(screen.first?.modals.isEmpty == true)
            // Logged in again: the same detail and sheet come back.
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            screen = try await h.waitUntilScreenMatches("logged in, main restored")
            #expect(screen.first?.modals.values.sorted() == ["sheet"])
            #expect(screen.first?.title == "Editor")
        }
    }

    @Test func reselectingTheSelectedTabPopsItToItsRoot() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.send(Self.window1, w("StackAppend"), "string:about", "dict:string:string:")
            try await h.waitUntilScreenMatches("two pushed")

            // A click on the selected tab is reported; the demo's tabs reselect with popToRoot.
            try await h.click("window/1/tab/home")
            try await h.waitForDaemon("home popped to its root") {
                try await h.property(Self.window1, "ActiveScreen")?.string == "home"
            }
            let screen = try await h.waitUntilScreenMatches("after reselecting home")
            #expect(screen.first?.canGoBack == false)
            #expect(screen.first?.tabs.values.first == "home")
        }
    }

    /// The renderer reports each version settled once its animation has run.
    @Test func reportsEachVersionSettledAfterItsAnimation() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            let reply = try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            let version = try #require(UInt64(reply.split(separator: " ").last ?? ""), "\(reply)")
            try await h.waitForDaemon("version \(version) settled") {
                try await h.property(Self.window1, "SettledVersion")?.uint64 == version
            }
            #expect(try await h.property(Self.window1, "SettledBy")?.string?.isEmpty == false)
        }
    }

    @Test func resynchronisesAfterARejectedReportAndAMissedChange() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("PresentAlert"), "string:Gone", "string:", "array:string:ok:OK")
            let screen = try await h.waitUntilScreenMatches("alert")
            let alert = try #require(screen.first?.dialogs.first?.key)

            // The renderer misses the change that dismisses the alert, so the user still sees it and answers
            // it: the daemon refuses the report, and the renderer resynchronises from GetState.
            try await h.dropChanges(true)
            try await h.send(Self.window1, w("Dismiss"))
            try await h.click("window/1/dialog/\(alert)/action/ok")
            try await h.waitUntilScreenMatches("after the refused report")
            #expect(try await h.resyncs()["rejectedReport"] == 1)

            // A lost Changed: the next one's previous_version is not the last version seen.
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,1")
            try await h.dropChanges(false)
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,2")
            try await h.waitUntilScreenMatches("after the missed change")
            #expect(try await h.resyncs()["missedChange"] == 1)
            #expect(h.rendererLog.contains("resynchronising from GetState"))
        }
    }

    /// The renderer's own unit tests (steps mapping, animator order), which need no display.
    @Test func pythonUnitTests() async throws {
        let directory = PrivateBus.repositoryRoot.appendingPathComponent("Examples/gtk-renderer")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gtk-renderer-unittest-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        let process = try ChildProcess.spawn(
            [try #require(await GtkEnvironment.python()), "-m", "unittest", "discover", "-s", directory.appendingPathComponent("tests").path],
            environment: ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"], stdout: devNull, stderr: handle.fileDescriptor)
        try handle.close()
        let bound = Liveness.bound(.seconds(60))
        let exit = await process.exit(within: bound)
        if exit == nil { process.signal(SIGKILL) }
        let status = try #require(exit?.shellStatus, "unittest did not finish within \(bound)")
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(status == 0, "python unittest failed:\n\(text)")
        #expect(text.contains("OK"))
    }

    // The demo's split scene, a custom container of kind split.
    private func customView(_ h: RendererHarness) async throws -> [String: Any] {
        try #require((try await h.described(1)["custom"] as? [[String: Any]])?.first)
    }

    @Test func showsASplitsColumnsSideBySideAndReportsTheSegmentTheUserPicks() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:split", "dict:string:string:")
            try await h.waitUntilScreenMatches("open split")
            var custom = try await customView(h)
            #expect(custom["kind"] as? String == "split")
            #expect(custom["selected"] as? Int == 4)
            #expect(custom["visibleColumns"] as? [Int] == [2, 4, 6])

            // A click on the "Folders" segment is reported; the daemon's active branch follows it.
            try await h.click("window/1/child/1/2")
            try await h.waitForDaemon("the sidebar selected") {
                try await h.property(Self.window1, "ActiveModel")?.uint64 == 3
            }
            try await h.waitUntilScreenMatches("sidebar selected")
            custom = try await customView(h)
            #expect(custom["selected"] as? Int == 2)

            // Column visibility: detailOnly shows the detail column alone.
            try await h.send(Self.window1, w("SetColumnVisibility"), "uint64:0", "string:detailOnly")
            try await h.waitForDaemon("detail only shown") {
                try await customView(h)["visibleColumns"] as? [Int] == [2, 6]
            }
        }
    }

    @Test func aSplitCollapsesToItsFocusedColumnInANarrowWindowAndReportsIt() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:split", "dict:string:string:")
            try await h.send(Self.window1, w("SelectChild"), "uint64:0", "uint32:2")
            try await h.waitUntilScreenMatches("detail focused")
            try await h.click("window/1/resize/420/520")
            // Waited for, not read once: a renderer-state write (the window's new size) may render the window again
            // meanwhile, before the daemon has the collapse.
            try await h.waitForDaemon("the split collapsed to its focused column") {
                let view = try await customView(h)
                return view["collapsed"] as? Bool == true && view["visibleColumns"] as? [Int] == [6]
            }
            // The renderer reported it (ReportCollapsed): the columns are one stack, so back is possible.
            try await h.waitForDaemon("the daemon knows the split is collapsed") {
                try await h.property(Self.window1, "CanGoBack")?.bool == true
            }
            try await h.waitUntilScreenMatches("collapsed")
            try await h.click("window/1/resize/960/520")
            try await h.waitForDaemon("the split expanded to its columns") {
                let view = try await customView(h)
                return view["collapsed"] as? Bool == false && view["visibleColumns"] as? [Int] == [2, 4, 6]
            }
            try await h.waitForDaemon("the daemon knows the split is expanded") {
                try await h.property(Self.window1, "CanGoBack")?.bool == false
            }
        }
    }

    /// The user closes the window, and the renderer's reopen-window action (Ctrl+Shift+N) brings it
    /// back with its navigation, as a new window on screen.
    @Test func theReopenWindowShortcutBringsBackAClosedWindowWithItsNavigation() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.waitUntilScreenMatches("detail pushed")
            try await h.click("window/1/close")
            // The renderer reports the close (and later asks to reopen) asynchronously: wait for the daemon each
            // time, or an empty screen before the close lands, or after it and before the reopen, would match.
            try await h.waitForDaemon("window 1 closed") { try await h.windows().isEmpty }
            try await h.waitUntilScreenMatches("the window closed")
            _ = try await h.call(RendererHarness.rendererName, RendererHarness.rendererPath, "org.navsession.GtkRenderer1", "ActivateAction", [.string("reopen-window")])
            try await h.waitForDaemon("the window reopened") { try await h.windows().count == 1 }
            try await h.waitUntilScreenMatches("the window reopened")
            let reopened = try await h.described(2)
            #expect(reopened["id"] as? String == "window/2")
            #expect(try await h.properties("/org/navsession/Session1/window/2")["ActiveScreen"] == .string("detail"))
        }
    }

    // MARK: Renderer state

    /// The daemon's state of window 1 as JSON.
    private func daemonState(_ h: RendererHarness) async throws -> [String: Any] {
        try await h.state(Self.window1)
    }

    private func rendererState(_ h: RendererHarness, model: UInt64?) async throws -> [String: Any]? {
        let state = try await daemonState(h)
        guard let model else { return state["rendererState"] as? [String: Any] }
        let models = state["models"] as? [[String: Any]] ?? []
        return models.first { ($0["id"] as? NSNumber)?.uint64Value == model }?["rendererState"] as? [String: Any]
    }

    private func page(_ h: RendererHarness, _ model: UInt64) async throws -> [String: Any]? {
        (try await h.described(1)["pages"] as? [String: Any])?[String(model)] as? [String: Any]
    }

    /// The window's size, the detail screen's scroll position and the editor's draft are kept in the daemon
    /// (SetRendererState) and come back after the daemon restarts; the renderer does not redraw for them.
    @Test func restoresWindowSizeScrollAndTheEditorsDraftAfterADaemonRestart() async throws {
        try await with { h in
            try await h.send(Self.session, "\(Self.session1).OpenWindow", "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("SwitchModel"), "string:main", "dict:string:string:")
            try await h.send(Self.window1, w("StackAppend"), "string:detail", "dict:string:string:id,42")
            try await h.waitUntilScreenMatches("detail")
            let detail = try #require(try await h.property(Self.window1, "ActiveModel")?.uint64)
            try await h.click("window/1/resize/900/640")
            try await h.click("window/1/scroll/\(detail)/300")
            try await h.send(Self.window1, w("Present"), "string:sheet", "string:editor", "dict:string:string:id,7")
            let screen = try await h.waitUntilScreenMatches("editor sheet")
            let sheet = try #require(screen.first?.modals.first?.key)
            try await h.click("window/1/modal/\(sheet)/type/Dear Ann,")
            try await h.waitForDaemon("size, scroll and draft kept") {
                let window = try await rendererState(h, model: nil)
                let page = try await rendererState(h, model: detail)
                let editor = try await rendererState(h, model: sheet)
                return window?["width"] as? Int == 900 && window?["height"] as? Int == 640
                    && page?["scroll"] as? Int == 300 && editor?["draft"] as? String == "Dear Ann,"
            }
            // Saving renderer state is a change with only rendererState steps: the renderer follows its version
            // without rendering again.
            try await h.waitUntilScreenMatches("restore-before")
            #expect(try await h.resyncs().values.reduce(0, +) == 0)

            try await h.daemon.restart()
            try await h.waitUntilScreenMatches("after the restart")
            try await h.waitForDaemon("the renderer restored size, scroll and draft") {
                let window = try await h.described(1)
                let size = window["size"] as? [Int]
                let scroll = try await page(h, detail)?["scroll"] as? Int
                let draft = try await page(h, sheet)?["draft"] as? String
                return size == [900, 640] && scroll == 300 && draft == "Dear Ann,"
            }
            try await h.waitUntilScreenMatches("restore-after")
            #expect(try await page(h, detail)?["scroll"] as? Int == 300)
            #expect(try await rendererState(h, model: detail)?["scroll"] as? Int == 300)
            // The picture for Docs/images/gtk-renderer-restore-after.png, once the renderer has settled what it shows.
            let version = try #require(try await h.property(Self.window1, "Version")?.uint64)
            try await h.waitForDaemon("the restored version settled") {
                try await h.property(Self.window1, "SettledVersion")?.uint64 == version
            }
            try await h.screenshot("restore-after-settled", windows: try await h.shownScreen())
        }
    }
}
