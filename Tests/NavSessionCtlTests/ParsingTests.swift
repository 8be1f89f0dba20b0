import Testing

/// Argument parsing, checked through `--dry-run` (which prints the D-Bus call) and usage errors; no daemon.
@Suite(.timeLimit(.minutes(1)))
struct ParsingTests {
    static let window1 = "/org/navsession/Session1/window/1 org.navsession.Window1"

    @Test(arguments: [
        (["stack-append", "detail", "id=42"], "\(window1).StackAppend(sa{ss}) \"detail\" {\"id\":\"42\"}"),
        (["stack-drop-last", "2"], "\(window1).StackDropLast(u) 2"),
        (["stack-drop-last"], "\(window1).StackDropLast(u) 1"),
        (["stack-drop-to-root"], "\(window1).StackDropToRoot()"),
        (["stack-set-root", "home", "--clear"], "\(window1).StackSetRoot(sa{ss}b) \"home\" {} true"),
        (["stack-set-root", "home", "a=b"], "\(window1).StackSetRoot(sa{ss}b) \"home\" {\"a\":\"b\"} false"),
        (["stack-set-path", "home", "detail"], "\(window1).StackSetPath(as) [\"home\",\"detail\"]"),
        (["present", "sheet+stack", "editor", "id=1"],
         "\(window1).Present(ssa{ss}) \"sheet+stack\" \"editor\" {\"id\":\"1\"}"),
        (["present-alert", "Title", "Message", "ok:OK:cancel"],
         "\(window1).PresentAlert(ssas) \"Title\" \"Message\" [\"ok:OK:cancel\"]"),
        (["present-confirmation-dialog", "T", "M", "a:A", "--source=btn"],
         "\(window1).PresentConfirmationDialog(ssass) \"T\" \"M\" [\"a:A\"] \"btn\""),
        (["dismiss"], "\(window1).Dismiss()"),
        (["tabs-select-item", "settings"], "\(window1).TabsSelectItem(s) \"settings\""),
        (["switch-model", "main"], "\(window1).SwitchModel(sa{ss}) \"main\" {}"),
        (["switch-model-with", "login", "--save-state=false"],
         "\(window1).SwitchModelWith(sa{ss}ss) \"login\" {} \"false\" \"\""),
        (["clear-saved-state", "--screen=main"], "\(window1).ClearSavedState(s) \"main\""),
        (["clear-saved-state"], "\(window1).ClearSavedState(s) \"\""),
        (["dismiss-at", "7"], "\(window1).DismissAt(t) 7"),
        (["report-popped", "3", "0"], "\(window1).ReportPopped(tu) 3 0"),
        (["report-action-chosen", "9", "ok"], "\(window1).ReportActionChosen(ts) 9 \"ok\""),
        (["send-message", "4", "ping", "k=v"], "\(window1).SendMessage(tsa{ss}) 4 \"ping\" {\"k\":\"v\"}"),
        (["apply", "[]"], "\(window1).Apply(sa{ss}) \"[]\" {}"),
        (["apply", "--expected-version=4", "[]"], "\(window1).Apply(sa{ss}) \"[]\" {\"expected_version\":\"4\"}"),
        (["check", "[]"], "\(window1).Check(sa{ss}) \"[]\" {}"),
        (["set-params", "0", "id=2"], "\(window1).SetParams(ta{ss}b) 0 {\"id\":\"2\"} false"),
        (["set-params", "5", "id=2", "--replace"], "\(window1).SetParams(ta{ss}b) 5 {\"id\":\"2\"} true"),
        (["set-title", "0", "Order"], "\(window1).SetTitle(ts) 0 \"Order\""),
        (["bring-to-front", "--screen=detail"], "\(window1).BringToFront(ss) \"detail\" \"\""),
        (["bring-to-front", "--tag=t"], "\(window1).BringToFront(ss) \"\" \"t\""),
        (["model-for-tag", "inbox"], "\(window1).ModelForTag(s) \"inbox\""),
        (["set-appearance", "tag:draft", #"{"tabBar":false}"#, "--replace"],
         "\(window1).SetAppearance(ssb) \"tag:draft\" \"{\\\"tabBar\\\":false}\" true"),
    ])
    func execMapsKebabCaseToTheMethod(words: [String], call: String) async throws {
        let result = try await Ctl.run(["exec", "--dry-run", "1"] + words)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == call + "\n")
    }

    @Test func keyValueSplitsAtTheFirstEqualsAndKeepsOrder() async throws {
        let result = try await Ctl.run(["open-window", "--dry-run", "waiting", "z=1", "q=a=b", "empty="])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            /org/navsession/Session1 org.navsession.Session1.OpenWindow(sa{ss}) "waiting" {"z":"1","q":"a=b","empty":""}

            """)
    }

    @Test(arguments: [
        (["waiting", "reason"], "'reason' is not KEY=VALUE"),
        (["waiting", "=x"], "'=x' has an empty key"),
        (["waiting", "a=1", "a=2"], "parameter 'a' is given twice"),
    ])
    func badKeyValueIsAUsageError(words: [String], message: String) async throws {
        let result = try await Ctl.run(["open-window", "--dry-run"] + words)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test(arguments: [
        ("7", "/org/navsession/Session1/window/7"),
        ("/org/navsession/Session1/window/12", "/org/navsession/Session1/window/12"),
    ])
    func windowIsANumberOrAPath(window: String, path: String) async throws {
        let result = try await Ctl.run(["exec", "--dry-run", window, "hide"])
        #expect(result.stdout == "\(path) org.navsession.Window1.Hide()\n", "\(result)")
    }

    @Test(arguments: ["abc", "-1", "window/1", "", "/bad//path"])
    func otherWindowsAreUsageErrors(window: String) async throws {
        let result = try await Ctl.run(["exec", "--dry-run", "--", window, "hide"])
        #expect(result.status == 64, "\(result)")
    }

    @Test(arguments: [
        (["teleport"], "unknown command 'teleport'"),
        (["stack-append"], "stack-append: missing SCREEN"),
        (["stack-drop-last", "two"], "COUNT must be a number, not 'two'"),
        (["dismiss", "extra"], "dismiss: unexpected 'extra'"),
        (["dismiss-at", "x"], "MODEL must be a model id, not 'x'"),
        (["stack-append", "detail", "--clear"], "unknown option '--clear'"),
        (["stack-set-path"], "missing SCREEN"),
        (["stack-append", "detail", "id"], "'id' is not KEY=VALUE"),
    ])
    func execUsageErrorsExit64(words: [String], message: String) async throws {
        let result = try await Ctl.run(["exec", "--dry-run", "1"] + words)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test(arguments: ["abc", "0", "-1", "3601", "nan"])
    func timeoutOutsideItsRangeIsAUsageError(timeout: String) async throws {
        let result = try await Ctl.run(["routes", "--timeout=\(timeout)", "1"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--timeout must be a number of seconds between 0 and 3600, not '\(timeout)'"),
                "\(result)")
    }

    @Test(arguments: ["list", "state", "exec", "wait", "watch", "open-url"])
    func everyConnectingCommandShowsTheSharedOptions(command: String) async throws {
        let result = try await Ctl.run([command, "--help"])
        for option in ["--bus <bus>", "--dest <dest>", "--timeout <seconds>", "(default: session)", "(default: 10)"] {
            #expect(result.stdout.contains(option), "\(command): \(result)")
        }
    }

    @Test func doubleDashEndsTheCommandsOptions() async throws {
        let result = try await Ctl.run(["exec", "--dry-run", "1", "present-alert", "--", "--title--", "m"])
        #expect(result.stdout == "\(Self.window1).PresentAlert(ssas) \"--title--\" \"m\" []\n", "\(result)")
    }
}

@Test func bothBinariesPrintTheOneReleaseVersion() async throws {
    let ctl = try await Ctl.run(["--version"])
    #expect(ctl.status == 0)
    #expect(ctl.stdout.wholeMatch(of: #/\d+\.\d+\.\d+\n/#) != nil, "\(ctl)")
}
