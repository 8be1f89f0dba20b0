import Foundation
import Testing

/// exec, state, tree, routes and graph against the real daemon.
@Suite(.timeLimit(.minutes(2)))
struct WindowCommandTests {
    /// A main window switched to its tabbed state with `detail id=42` pushed on the home tab.
    static func mainWithDetail(_ daemon: DaemonFixture) async throws -> String {
        let window = try await daemon.openWindow("main")
        let switched = try await daemon.exec(window, ["switch-model", "main"])
        let pushed = try await daemon.exec(window, ["stack-append", "detail", "id=42"])
        #expect(pushed == switched + 1)
        return window
    }

    @Test func stateSetLoadsASavedStateIntoAnotherWindow() async throws {
        try await DaemonFixture.with { daemon in
            let source = try await Self.mainWithDetail(daemon)
            let saved = try await daemon.ctl(["state", "--json", source])
            #expect(saved.status == 0, "\(saved)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("navsession-state-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            try saved.stdout.write(to: file, atomically: true, encoding: .utf8)
            let target = try await daemon.openWindow("waiting")
            let loaded = try await daemon.ctl(["state", target, "--set", file.path])
            #expect(loaded.status == 0, "\(loaded)")
            #expect(loaded.stdout == "1\n", "\(loaded)")
            let tree = try await daemon.ctl(["tree", target])
            #expect(tree.stdout.contains("detail"), "\(tree)")
            try "{}".write(to: file, atomically: true, encoding: .utf8)
            let bad = try await daemon.ctl(["state", target, "--set", file.path])
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("is not a window state"), "\(bad)")
        }
    }

    @Test func setRoutesTakesBackWhatRoutesPrints() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let routes = try await daemon.ctl(["routes", "--json", window])
            #expect(routes.stdout == #"[{"style":"push","screen":"detail","params":{"id":"42"}}]"# + "\n", "\(routes)")
            let version = try await daemon.exec(window, ["set-routes", routes.stdout])
            #expect(try await daemon.exec(window, ["set-routes", routes.stdout]) == version, "the routes it has: no change")
            let target = #"[{"style":"push","screen":"detail","params":{"id":"42"}},{"style":"cover","screen":"about","withNavigation":false}]"#
            #expect(try await daemon.exec(window, ["set-routes", target]) == version + 1)
            #expect(try await daemon.ctl(["routes", "--json", window]).stdout == target + "\n")
        }
    }

    @Test func stateSetStopsReadingAnEndlessInputAtItsLimit() async throws {
        try await DaemonFixture.with { daemon in
            let target = try await daemon.openWindow("waiting")
            let endless = try await daemon.ctl(["state", target, "--set", "/dev/zero"])
            #expect(endless.status != 0)
            #expect(endless.stderr.contains("cannot read /dev/zero: more than the 32 MiB navsessionctl reads"), "\(endless)")
        }
    }

    @Test func execGoesBackInKebabAndBatchSpelling() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            var version = try await daemon.exec(window, ["stack-append", "about"])
            version = try await daemon.exec(window, ["present", "sheet+stack", "editor", "id=1"])
            #expect(try await daemon.exec(window, ["goBackTo", "detail"]) == version + 1)
            #expect(try await daemon.exec(window, ["present", "cover", "profile"]) == version + 2)
            #expect(try await daemon.exec(window, ["dismiss-all"]) == version + 3)
            #expect(try await daemon.exec(window, ["go-back"]) == version + 4)
            #expect(try await daemon.exec(window, ["goBackToRoot"]) == version + 4, "at the root: a no-op")
            let refused = try await daemon.ctl(["exec", window, "go-back"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("org.navsession.Error.NothingToGoBack"), "\(refused)")
        }
    }

    /// `exec go-forward` re-enters what `go-back` removed, and is refused with an empty forward list.
    @Test func execGoForwardReentersWhatGoBackRemoved() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let version = try await daemon.exec(window, ["go-back"])
            #expect(try await daemon.exec(window, ["go-forward"]) == version + 1)
            let refused = try await daemon.ctl(["exec", window, "go-forward"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("org.navsession.Error.NothingToGoForward"), "\(refused)")
        }
    }

    @Test func execCommandsPrintConsecutiveVersions() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            var version = try await daemon.exec(window, ["stack-append", "profile"])
            for words in [
                ["stack-drop-last", "2"],
                ["present", "sheet+stack", "detail", "id=7"],
                ["dismiss"],
                ["tabs-select-item", "settings"],
                ["present-alert", "Title", "Message", "ok:OK:cancel"],
            ] {
                let next = try await daemon.exec(window, words)
                #expect(next == version + 1, "\(words)")
                version = next
            }
            let json = try await daemon.ctl(["exec", "--json", window, "dismiss"])
            #expect(json.stdout == "{\"version\":\(version + 1)}\n", "\(json)")

            let applied = try await daemon.ctl([
                "exec", window, "apply", #"[{"command":"tabsSelectItem","tab":"home"},{"command":"stackDropToRoot"}]"#,
            ])
            #expect(applied.status == 0, "\(applied)")
            #expect(applied.stdout == "\(version + 2) started=\n", "one batch, one version, nothing started")
            let checked = try await daemon.ctl(["exec", "--json", window, "check", #"[{"command":"stackAppend","models":[{"screen":"about"}]}]"#])
            #expect(checked.stdout.hasPrefix("{\"version\":\(version + 3),\"started\":["), "\(checked)")
            let stale = try await daemon.ctl(["exec", window, "apply", "--expected-version=1", #"[{"command":"dismiss"}]"#])
            #expect(stale.stderr.contains("VersionMismatch"), "\(stale)")
            let routes = try await daemon.ctl(["routes", "--json", window])
            #expect(routes.stdout == "[]\n", "\(routes)")
        }
    }

    @Test func stateIsIndentedJSONOrOneLine() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let pretty = try await daemon.ctl(["state", window])
            #expect(pretty.status == 0, "\(pretty)")
            #expect(pretty.stdout.hasPrefix("{\n  \""), "\(pretty)")
            #expect(pretty.stdout.contains("\n  \"format\": \"navsession.window\",\n"), "\(pretty)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(pretty.stdout.utf8)) as? [String: Any])
            #expect(object["version"] as? Int == 2)

            let compact = try await daemon.ctl(["state", "--json", window])
            #expect(compact.lines.count == 1)
            #expect(compact.stdout.contains("\"screen\":\"detail\""))
        }
    }

    @Test func treeHasOneLinePerModelAndNoColoursInAPipe() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let tree = try await daemon.ctl(["tree", window])
            #expect(tree.status == 0, "\(tree)")
            #expect(!tree.stdout.contains("\u{1B}["))
            #expect(tree.lines.first?.hasPrefix("switched ") == true, "\(tree)")
            #expect(tree.lines.contains { $0.hasPrefix("  tabs ") && $0.contains("(switched)") }, "\(tree)")
            #expect(tree.lines.contains { $0.contains("stack stack #") && $0.contains("(tab home") }, "\(tree)")
            #expect(tree.lines.contains { $0.contains("screen detail #") && $0.hasSuffix("(path[1]) {\"id\":\"42\"}") }, "\(tree)")

            let coloured = try await daemon.ctl(["tree", "--color", window])
            #expect(coloured.stdout.contains("\u{1B}[34mscreen\u{1B}[0m \u{1B}[1mdetail\u{1B}[0m \u{1B}[33m#"), "\(coloured)")
            #expect(coloured.stdout.contains("\u{1B}[32m(path[1])\u{1B}[0m \u{1B}[35m{\"id\":\"42\"}\u{1B}[0m"), "\(coloured)")
            let plain = try await daemon.ctl(["tree", "--color", "--no-color", window])
            #expect(plain.stdout == tree.stdout)
        }
    }

    @Test func treeParamsAreAJSONObject() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("main")
            _ = try await daemon.exec(window, ["switch-model", "main"])
            _ = try await daemon.exec(window, ["stack-append", "detail", "edit=b, c=d", "id=\"x\""])
            let tree = try await daemon.ctl(["tree", window])
            #expect(tree.lines.contains { $0.hasSuffix(#" {"edit":"b, c=d","id":"\"x\""}"#) }, "\(tree)")
        }
    }

    @Test func stateJSONFlagHelpSaysOneLine() async throws {
        for subcommand in ["state", "routes"] {
            let help = try await Ctl.run([subcommand, "--help"])
            #expect(help.stdout.contains("on one line"), "\(help)")
            #expect(!help.stdout.contains("instead of text"), "\(help)")
        }
    }

    @Test func routesFollowTheActiveBranch() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            try await daemon.exec(window, ["present", "sheet+stack", "profile"])
            let routes = try await daemon.ctl(["routes", "--json", window])
            #expect(routes.status == 0, "\(routes)")
            let list = try #require(try JSONSerialization.jsonObject(with: Data(routes.stdout.utf8)) as? [[String: Any]])
            #expect(list.map { $0["screen"] as? String } == ["detail", "profile"], "\(routes)")
            #expect(list.map { $0["style"] as? String } == ["push", "sheet"], "\(routes)")
            let pretty = try await daemon.ctl(["routes", window])
            #expect(pretty.stdout.hasPrefix("[\n  {\n"), "\(pretty)")
        }
    }

    @Test func graphIsDOTWithNodesEdgesAndTheActivePath() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let graph = try await daemon.ctl(["graph", "--dot", window])
            #expect(graph.status == 0, "\(graph)")
            let lines = graph.lines
            #expect(lines.first == "digraph \"window_\(window)\" {")
            #expect(lines.last == "}")
            let nodes = lines.filter { $0.hasPrefix("  m") && !$0.contains("->") }
            let edges = lines.filter { $0.contains(" -> ") }
            #expect(edges.count == nodes.count - 1, "a tree: one edge per non-root model")
            #expect(nodes.contains { $0.contains("[label=\"screen\\ndetail\\n#") && $0.contains("color=\"red\"") })
            #expect(nodes.contains { $0.contains("[label=\"screen\\nsettings\\n#") && !$0.contains("color=\"red\"") })
            #expect(edges.contains { $0.contains("[label=\"path[1]\", color=\"red\"") }, "\(graph)")
            #expect(edges.contains { $0.contains("[label=\"tab settings\"]") }, "\(graph)")
            #expect(edges.contains { $0.contains("[label=\"switched\", color=\"red\"") }, "\(graph)")
        }
    }

    /// `exec set-appearance` with the active model (`""`) changes its appearance in place.
    @Test func execSetAppearanceChangesTheActiveModelsAppearance() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let before = try await daemon.exec(window, ["set-title", "0", "Detail 42"])
            let after = try await daemon.exec(window, ["set-appearance", "", #"{"backButton":false}"#])
            #expect(after == before + 1)
            let state = try await daemon.ctl(["exec", window, "get-state"])
            let compact = state.stdout.filter { !$0.isWhitespace }
            #expect(compact.contains(#""appearanceOverride":{"backButton":false}"#), "\(state)")
            let wrong = try await daemon.ctl(["exec", window, "set-appearance", "", #"{"backButon":false}"#])
            #expect(wrong.status != 0 && wrong.stderr.contains("org.navsession.Error.InvalidCommand"), "\(wrong)")
        }
    }

    /// `exec set-renderer-state 0 JSON` stores the window's own renderer state.
    @Test func execSetRendererStateStoresTheWindowsObject() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let before = try await daemon.exec(window, ["set-title", "0", "Detail 42"])
            let after = try await daemon.exec(window, ["set-renderer-state", "0", #"{"width":900,"height":640}"#])
            #expect(after == before + 1)
            let state = try await daemon.ctl(["exec", window, "get-state"])
            let compact = state.stdout.filter { !$0.isWhitespace }
            #expect(compact.contains(#""rendererState":{"height":640,"width":900}"#), "\(state)")
            let wrong = try await daemon.ctl(["exec", window, "set-renderer-state", "0", "[1]"])
            #expect(wrong.status != 0 && wrong.stderr.contains("org.navsession.Error.InvalidCommand"), "\(wrong)")
        }
    }

    @Test func execSetParamsBringToFrontAndModelForTag() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await Self.mainWithDetail(daemon)
            let pushed = try await daemon.ctl(
                ["exec", window, "apply", #"[{"command":"stackAppend","models":[{"screen":"profile","tag":"me"}]}]"#])
            #expect(pushed.status == 0, "\(pushed)")
            let id = try await daemon.ctl(["exec", window, "model-for-tag", "me"])
            #expect(id.status == 0, "\(id)")
            let profile = id.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let json = try await daemon.ctl(["exec", "--json", window, "model-for-tag", "me"])
            #expect(json.stdout == "{\"model\":\(profile)}\n", "\(json)")
            let before = try await daemon.exec(window, ["set-params", profile, "edit=1"])
            #expect(try await daemon.exec(window, ["bring-to-front", "--screen=detail"]) == before + 1)
            let tree = try await daemon.ctl(["tree", "--no-color", window])
            #expect(tree.stdout.contains(#"screen profile #\#(profile) (path[1]) tag:"me" {"edit":"1"}"#), "\(tree)")
            #expect(tree.stdout.contains(#"screen detail"#), "\(tree)")
            let colored = try await daemon.ctl(["tree", "--color", window])
            #expect(colored.stdout.contains("\u{1B}[36mtag:\"me\"\u{1B}[0m \u{1B}[35m{\"edit\":\"1\"}"), "\(colored)")
            let missing = try await daemon.ctl(["exec", window, "model-for-tag", "nope"])
            #expect(missing.status != 0 && missing.stderr.contains("org.navsession.Error.UnknownTag"), "\(missing)")
        }
    }

    // The split scene through `navsessionctl exec`.
    @Test func execSelectsASplitsColumnSetsItsVisibilityAndReportsItCollapsed() async throws {
        try await DaemonFixture.with { daemon in
            let window = try await daemon.openWindow("split")
            let selected = try await daemon.exec(window, ["select-child", "0", "2"])
            let visible = try await daemon.exec(window, ["set-column-visibility", "0", "detailOnly"])
            #expect(visible == selected + 1)
            let collapsed = try await daemon.exec(window, ["report-collapsed", "1", "--collapsed"])
            #expect(collapsed == visible + 1)
            let routes = try await daemon.ctl(["routes", window])
            #expect(routes.stdout.contains("messages") && routes.stdout.contains("message"), "\(routes)")
            let refused = try await daemon.ctl(["exec", window, "select-child", "0", "5"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("UnknownChild"), "\(refused)")
        }
    }
}
