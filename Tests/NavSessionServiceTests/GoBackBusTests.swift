import DBusKit
import DBusTestSupport
import Foundation
import NavSessionTesting
import NavigationSession
import Testing

/// GoBack, GoBackToRoot, GoBackTo, DismissAll, dismissal with a result and the demo's tab reselect, through
/// the bus with dbus-send and gdbus on the demo manifest.
@Suite struct GoBackBusTests {
    func canGoBack(_ fixture: DaemonFixture, _ window: String) async throws -> Bool {
        try await fixture.windowProperty(window, "CanGoBack") == .boolean(true)
    }

    @Test func goBackDismissesAPlainCoverAndCanGoBackAgrees() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            #expect(try await !canGoBack(fixture, window))
            _ = try await fixture.window(window, "Present", [.string("cover"), .string("about"), .noParams])
            #expect(try await canGoBack(fixture, window))
            let before = try await fixture.version(window)
            #expect(try await fixture.dbusSendVersion(window, "GoBack").version == before + 1)
            #expect(try await fixture.routeSummaries(window) == [])
            #expect(try await !canGoBack(fixture, window))
            let refused = try await fixture.dbusSendVersion(window, "GoBack")
            #expect(refused.version == nil && refused.error.contains("org.navsession.Error.NothingToGoBack"), "\(refused)")
        }
    }

    @Test func goBackPopsAPushAndCanGoBackAgrees() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            #expect(try await canGoBack(fixture, window))
            #expect(try await fixture.dbusSendVersion(window, "GoBack").version != nil)
            #expect(try await fixture.routeSummaries(window) == [])
            #expect(try await !canGoBack(fixture, window))
        }
    }

    @Test func goBackToRootDismissesAndPopsInOneChange() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            #expect(try await fixture.routeSummaries(window) == ["push detail", "sheet editor", "push about"])
            let before = try await fixture.version(window)
            #expect(try await fixture.dbusSendVersion(window, "GoBackToRoot").version == before + 1)
            #expect(try await fixture.routeSummaries(window) == [])
            #expect(try await fixture.windowProperty(window, "ActiveScreen") == .string("home"))
            // At the root already: a no-op.
            #expect(try await fixture.dbusSendVersion(window, "GoBackToRoot").version == before + 1)
        }
    }

    @Test func goBackToRootIsOneChangeWhoseStepsDismissEachLayerThenPop() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            _ = try await fixture.window(window, "Present", [.string("cover"), .string("about"), .noParams])
            let changes = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Changed")
            _ = try await fixture.window(window, "GoBackToRoot")
            let changed = try #require(try await take(1, of: changes).first)
            let steps = try #require(try json(changed.arguments[6].string) as? [[String: Any]])
            // The demo's main scene has neither multiDismiss nor pushesInOne: one layer per step, top-down.
            #expect(steps.compactMap { $0["kind"] as? String } == ["dismiss", "dismiss", "pop"], "\(steps)")
        }
    }

    @Test func goBackToAScreenAcrossLayersWithGdbus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            let result = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window,
                          "--method", "org.navsession.Window1.GoBackTo", "detail"])
            #expect(result.status == 0, "\(result)")
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            let missing = try await fixture.dbusSendVersion(window, "GoBackTo", ["string:profile"])
            #expect(missing.error.contains("org.navsession.Error.RouteNotFound"), "\(missing)")
            #expect(missing.error.contains("screen \"profile\""), "\(missing)")
        }
    }

    @Test func goBackToByIndexAndModelThroughApply() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            for id in ["1", "2", "3"] {
                _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": id])])
            }
            _ = try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"goBackTo","index":1}]"#)])
            #expect(try await fixture.routeSummaries(window) == ["push detail", "push detail"])
            let first = try await fixture.models(window).first { ($0["params"] as? [String: String])?["id"] == "1" }
            let id = try #require(first?["id"] as? Int)
            _ = try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"goBackTo","model":\#(id)}]"#)])
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            let two = await fixture.error {
                try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"goBackTo","index":0,"screen":"home"}]"#)])
            }
            #expect(two?.name.rawValue == "org.navsession.Error.InvalidBatch", "\(String(describing: two))")
        }
    }

    @Test func goBackToATagAcrossLayersWithGdbus() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            // NavigationViewKit's pop-to by tag: back to the tagged detail, under a sheet and a push.
            let push = #"[{"command":"stackAppend","models":[{"screen":"detail","params":{"id":"1"},"tag":"order"}]},"#
                + #"{"command":"stackAppend","models":[{"screen":"about"}]},"#
                + #"{"command":"present","presentation":{"kind":"sheet","model":{"screen":"about"}}}]"#
            _ = try await fixture.session("Apply", [try .path(window), .string(push)])
            let back = try await fixture.run(
                "gdbus", ["call", "--session", "--dest", DaemonFixture.name, "--object-path", window, "--method",
                          "org.navsession.Window1.Apply", #"[{"command":"goBackTo","tag":"order"}]"#, "{}"])
            #expect(back.status == 0, "\(back)")
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            let unknown = await fixture.error {
                try await fixture.session("Apply", [try .path(window), .string(#"[{"command":"goBackTo","tag":"nope"}]"#)])
            }
            #expect(unknown?.name.rawValue == "org.navsession.Error.UnknownTag", "\(String(describing: unknown))")
        }
    }

    @Test func dismissAllKeepsTheStackAndIsANoOpWithNothingPresented() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            _ = try await fixture.window(window, "PresentAlert", [.string("error"), .string(""), .strings([])])
            let before = try await fixture.version(window)
            #expect(try await fixture.dbusSendVersion(window, "DismissAll").version == before + 1)
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            #expect(try await fixture.dbusSendVersion(window, "DismissAll").version == before + 1)
        }
    }

    @Test func dismissWithAResultSendsAResultMessageToThePresenter() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "Present", [.string("sheet+stack"), .string("editor"), .params(["id": "1"])])
            let messages = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Message")
            _ = try await fixture.session(
                "Apply", [try .path(window), .string(#"[{"command":"dismiss","result":{"saved":true}}]"#)])
            let message = try #require(try await take(1, of: messages).first)
            #expect(message.arguments[1] == .string("result"), "\(message)")
            guard case .dictionary(_, _, let entries) = message.arguments[2] else { Issue.record("\(message)"); return }
            #expect(entries.contains { $0.key == .string("payload") && $0.value == .string(#"{"saved":true}"#) }, "\(message)")
            #expect(try await fixture.routeSummaries(window) == [])
        }
    }

    /// A pushed screen opens a sheet (presented by the tabs' container, its nearest presenter); the sheet's result
    /// reaches that screen, not the container.
    @Test func aSheetsResultReachesThePushedScreenThatOpenedIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try await fixture.modelID(window, where: "screen", is: "detail")
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
            let messages = try await fixture.signals(
                path: window, interface: try InterfaceName("org.navsession.Window1"), member: "Message")
            let result = try await fixture.gdbus(window, "Apply", [#"[{"command":"goBack","result":{"picked":2}}]"#, "{}"])
            #expect(result.status == 0, "\(result)")
            let message = try #require(try await take(1, of: messages).first)
            #expect(message.arguments[0] == .uint64(detail) && message.arguments[1] == .string("result"), "\(message)")
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
        }
    }

    /// SwiftUI: a sheet goes with the destination that presented it. The detail that opened it is popped from
    /// under it (a script pops the stack): the sheet is dismissed in the same change.
    @Test func aSheetGoesWithThePushedScreenThatOpenedIt() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let detail = try await fixture.models(window).first { $0["screen"] as? String == "detail" }
            let stack = try #require(detail?["parent"] as? Int)
            _ = try await fixture.window(window, "Present", [.string("sheet"), .string("about"), .noParams])
            #expect(try await fixture.routeSummaries(window) == ["push detail", "sheet about"])
            let before = try await fixture.version(window)
            let popped = try await fixture.gdbus(window, "ExecuteAt", ["\(stack)", #"{"command":"stackDropLast"}"#])
            #expect(popped.status == 0, "\(popped)")
            #expect(try await fixture.version(window) == before + 1, "one change")
            #expect(try await fixture.routeSummaries(window) == [])
        }
    }

    @Test func reselectingTheSelectedTabPopsItToItsRoot() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1"])])
            let before = try await fixture.version(window)
            #expect(try await fixture.dbusSendVersion(window, "TabsSelectItem", ["string:home"]).version == before + 1)
            #expect(try await fixture.routeSummaries(window) == [])
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            let tabs = try await fixture.modelID(window, where: "kind", is: "tabs")
            #expect(try await fixture.dbusSendVersion(window, "ReportTabSelected", ["uint64:\(tabs)", "string:home"]).version != nil)
            #expect(try await fixture.routeSummaries(window) == [])
            let state = try await fixture.models(window).first { ($0["kind"] as? String) == "tabs" }
            #expect(state?["reselect"] as? String == "popToRoot")
        }
    }

    /// FlowStacks' rule through the bus: a screen shown on top is where `GoBackTo` already is.
    @Test func goBackToTheScreenOnTopChangesNothingAndByValueFindsTheRightOne() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            for id in ["1", "9"] {
                _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": id])])
            }
            _ = try await fixture.gdbus(window, "GoBackTo", ["detail"])
            #expect(try await fixture.routeSummaries(window) == ["push detail", "push detail"])
            let apply = try await fixture.gdbus(
                window, "Apply", [#"[{"command":"goBackTo","screen":"detail","params":{"id":"1"}}]"#, "{}"])
            #expect(apply.status == 0, "\(apply)")
            let routes = try json(try await fixture.window(window, "GetRoutes").first?.string) as? [[String: Any]]
            #expect(routes?.compactMap { ($0["params"] as? [String: String])?["id"] } == ["1"])
        }
    }

    /// React Navigation's `popTo` through gdbus: back to the screen with new params (same model), or in place of
    /// the top when the stack does not show it.
    @Test func popToGoesBackWithParamsOrReplacesTheTop() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            _ = try await fixture.window(window, "StackAppend", [.string("detail"), .params(["id": "1", "edit": "a"])])
            let detail = try await fixture.modelID(window, where: "screen", is: "detail")
            _ = try await fixture.window(window, "StackAppend", [.string("about"), .noParams])
            let merged = try await fixture.gdbus(window, "PopTo", ["detail", "{'id': '2'}", "true"])
            #expect(merged.status == 0, "\(merged)")
            #expect(try await fixture.routeSummaries(window) == ["push detail"])
            #expect(try await fixture.modelID(window, where: "screen", is: "detail") == detail)
            let routes = try json(try await fixture.window(window, "GetRoutes").first?.string) as? [[String: Any]]
            #expect(routes?.first?["params"] as? [String: String] == ["id": "2", "edit": "a"])
            let replaced = try await fixture.gdbus(window, "PopTo", ["about", "{}", "false"])
            #expect(replaced.status == 0, "\(replaced)")
            #expect(try await fixture.routeSummaries(window) == ["push about"])
            let empty = try await fixture.gdbus(window, "PopTo", ["", "{}", "false"])
            #expect(empty.status != 0 && empty.stderr.contains("InvalidArgs"), "\(empty)")
        }
    }

    /// React Navigation's `pop` with a source through gdbus: the source's element and the ones below it go, those
    /// above it stay.
    @Test func popAtRemovesTheSourceAndTheOnesBelowAndKeepsThoseAbove() async throws {
        try await DaemonFixture.with { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            for screen in ["about", "detail", "about"] {
                _ = try await fixture.window(window, "StackAppend", [.string(screen), .params(screen == "detail" ? ["id": "1"] : [:])])
            }
            let detail = try await fixture.modelID(window, where: "screen", is: "detail")
            let popped = try await fixture.gdbus(window, "PopAt", ["\(detail)", "2"])
            #expect(popped.status == 0, "\(popped)")
            #expect(try await fixture.routeSummaries(window) == ["push about"])
            let refused = try await fixture.gdbus(window, "PopAt", ["\(detail)", "1"])
            #expect(refused.status != 0 && refused.stderr.contains("UnknownModel"), "\(refused)")
        }
    }

    static func tabsManifest(selected: String, backBehavior: String) -> NavSessionTestDaemon.Configuration.Manifest {
        .json(Manifest.demoJSON.replacingOccurrences(
            of: #""selectedTab": "home","#, with: #""selectedTab": "\#(selected)", "backBehavior": "\#(backBehavior)","#))
    }

    /// React Navigation's `initialRoute`: `GoBack` at a tab's root returns to the tab the container started with
    /// (here `settings`, not the first tab), and `CanGoBack` says so.
    @Test func initialRouteTabsGoBackToTheTabTheyStartedWith() async throws {
        try await DaemonFixture.with(manifest: Self.tabsManifest(selected: "settings", backBehavior: "initialRoute")) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("settings"))
            #expect(try await !canGoBack(fixture, window))
            _ = try await fixture.window(window, "TabsSelectItem", [.string("home")])
            #expect(try await canGoBack(fixture, window))
            #expect(try await fixture.dbusSendVersion(window, "GoBack").version != nil)
            #expect(try await fixture.windowProperty(window, "SelectedTab") == .string("settings"))
            #expect(try await !canGoBack(fixture, window))
        }
    }

    /// React Navigation's `fullHistory`: every visit, repeats included.
    @Test func fullHistoryTabsGoBackThroughEveryVisit() async throws {
        try await DaemonFixture.with(manifest: Self.tabsManifest(selected: "home", backBehavior: "fullHistory")) { fixture in
            let window = try await fixture.openWindow()
            try await fixture.logIn(window)
            for tab in ["settings", "home", "settings"] {
                _ = try await fixture.window(window, "TabsSelectItem", [.string(tab)])
            }
            var visited: [Value] = []
            while try await canGoBack(fixture, window) {
                _ = try await fixture.gdbus(window, "GoBack")
                visited.append(try await fixture.windowProperty(window, "SelectedTab"))
            }
            #expect(visited == [.string("home"), .string("settings"), .string("home")])
        }
    }
}
