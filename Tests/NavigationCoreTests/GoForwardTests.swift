import Foundation
import Testing

@testable import NavigationCore

/// The forward list and `goForward`.
struct GoForwardTests {
    func routeScreens(_ window: NavigationWindow) -> [String] { window.routes.map { "\($0.style.rawValue) \($0.screen)" } }

    @Test func goBackRemembersThePopAndGoForwardPushesTheSameModelAgain() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "7"], title: "Seven", tag: "seven")]))
        #expect(!window.canGoForward)
        try window.execute(.goBack)
        #expect(window.canGoForward)
        #expect(window.forward.map(\.route) == [.push("detail", params: ["id": "7"])])
        let event = try window.execute(.goForward)
        let created = try #require(event.started.first)
        #expect(created == 3, "the model comes back as itself")
        #expect(event.steps == [.push(stack: 1, models: [created])])
        #expect(window.model(created)?.tag == "seven" && window.model(created)?.title == "Seven")
        #expect(window.model(created)?.params == ["id": "7"])
        #expect(!window.canGoForward)
    }

    /// A presented stack, a pushed tabs container and their children come back with the ids they had, also from a
    /// snapshot; an id held by another model is never taken (a fresh one instead).
    @Test func goForwardGivesBackTheIdsOfAPresentedStackAndAContainersChildren() throws {
        let window = try makeWindow(.switched(.stack([home])))
        try window.execute(.present(.sheet(.stacked(.screen("compose")))))
        let sheet = window.routes.count
        #expect(sheet == 1)
        let before = window.snapshot().models.map(\.id)
        try window.execute(.goBack)
        let removed = Set(before).subtracting(window.snapshot().models.map(\.id))
        #expect(removed.count == 2)
        let json = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: json))
        for target in [window, restored] {
            let event = try target.execute(.goForward)
            #expect(Set(event.started) == removed)
            #expect(Set(target.snapshot().models.map(\.id)) == Set(before))
        }
        try window.execute(.goBack)
        let home = try #require(window.snapshot().models.first { $0.screen == "home" }?.id)
        try window.execute(.stackAppend([StackElementSpec(.tabs([
            TabSpec(id: "a", title: "A", model: .stacked(.screen("one"))),
            TabSpec(id: "b", title: "B", model: .stacked(.screen("two"))),
        ]))]), from: home)
        let withTabs = window.snapshot().models.map(\.id)
        try window.execute(.stackDropLast(1), from: home)
        try window.execute(.goForward)
        #expect(Set(window.snapshot().models.map(\.id)) == Set(withTabs))
    }

    /// The screen's draft (its renderer state) comes back with it, for a push and for a presented stack, and the
    /// list keeps it across a snapshot.
    @Test func goForwardGivesTheScreenBackItsRendererState() throws {
        let window = try makeWindow(.switched(.stack([home, .screen("editor")])))
        let editor = window.activeModelID
        try window.execute(.setRendererState(model: .id(editor), RendererState(["draft": .string("Dear Ann,")])))
        try window.execute(.goBack)
        #expect(window.forward.first?.rendererState == RendererState(["draft": .string("Dear Ann,")]))
        let json = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: json))
        for target in [window, restored] {
            try target.execute(.goForward)
            #expect(target.model(target.activeModelID)?.rendererState == RendererState(["draft": .string("Dear Ann,")]))
        }
        try window.execute(.present(.sheet(.stacked(.screen("compose")))))
        try window.execute(.setRendererState(model: .id(window.activeModelID), RendererState(["scroll": .number(3)])))
        try window.execute(.goBack)
        try window.execute(.goForward)
        #expect(window.model(window.activeModelID)?.rendererState == RendererState(["scroll": .number(3)]))
    }

    @Test func goForwardWithAnEmptyListFailsWithNothingToGoForward() throws {
        let window = try makeWindow(.stack([home]))
        expectRejected(window, .nothingToGoForward(requested: 1, available: 0)) { () throws(NavigationError) in
            try window.execute(.goForward)
        }
    }

    @Test func aCountBeyondTheListFailsAndChangesNothing() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.goBack)
        expectRejected(window, .nothingToGoForward(requested: 2, available: 1)) { () throws(NavigationError) in
            try window.execute(.goForward(count: 2))
        }
    }

    @Test func aNewPushClearsTheForwardList() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.goBack)
        try window.execute(.stackAppend(.screen("about")))
        #expect(window.forward.isEmpty && !window.canGoForward)
    }

    @Test func aPresentationClearsTheForwardList() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.goBack)
        try window.execute(.present(.sheet(.screen("editor"))))
        #expect(window.forward.isEmpty)
    }

    @Test func goBackToRootRemembersEveryRouteAndGoForwardReentersThemInOrder() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        try window.execute(.present(.sheet(.stack([.screen("editor", tag: "ed"), .screen("more")]), detents: ["medium"])))
        let before = window.routes
        try window.execute(.goBackToRoot)
        #expect(window.forward.count == 3)
        let event = try window.execute(.goForward(count: 3))
        #expect(window.routes == before)
        #expect(event.started.count == 4, "detail, the sheet's stack, editor and more")
        let editor = try #require(id("editor", in: window))
        let stackID = try #require(window.parent(of: editor))
        let sheet = try #require(window.model(stackID))
        #expect(sheet.attachment == .presented(.sheet(detents: ["medium"])))
        #expect(window.resolveTag("ed") != nil)
        #expect(window.forward.isEmpty)
    }

    @Test func successiveBacksPutTheNearestRouteFirst() throws {
        let window = try makeWindow(.stack([home, .screen("a"), .screen("b")]))
        try window.execute(.goBack)
        try window.execute(.goBack)
        #expect(window.forward.map(\.route.screen) == ["a", "b"])
        try window.execute(.goForward)
        #expect(routeScreens(window) == ["push a"])
        #expect(window.forward.map(\.route.screen) == ["b"])
    }

    @Test func anAlertShownAndDismissedKeepsTheForwardList() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        try window.execute(.goBack)
        let alert = PresentationSpec.alert(DialogContent(title: "Hi", actions: [DialogAction(id: "ok", title: "OK")]))
        try window.execute(.present(alert))
        #expect(window.canGoForward, "an alert is not a route")
        try window.execute(.goBack)
        #expect(window.forward.map(\.route.screen) == ["detail"])
    }

    @Test func switchingTabsClearsTheForwardList() throws {
        let window = try makeWindow(.tabs([
            TabSpec(id: "one", title: "One", model: .stack([home, detail])),
            TabSpec(id: "two", title: "Two", model: .stacked(.screen("settings"))),
        ]))
        try window.execute(.goBack)
        #expect(window.canGoForward)
        try window.execute(.tabsSelectItem("two"))
        #expect(!window.canGoForward)
    }

    @Test func aRendererReportOfAPopIsRememberedToo() throws {
        let window = try makeWindow(.stack([home, detail, .screen("about")]))
        try window.report(.poppedTo(stack: 1, index: 0))
        #expect(window.forward.map(\.route.screen) == ["detail", "about"])
    }

    @Test func aRendererReportOfADismissalIsRemembered() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.fullScreenCover(.screen("player"))))
        let cover = try #require(id("player", in: window))
        try window.report(.dismissedInteractively(cover))
        #expect(window.forward.map(\.route) == [.cover("player")])
    }

    @Test func theListKeepsAtMost32Entries() throws {
        let window = try makeWindow(.stack([home] + (0..<40).map { .screen("s\($0)") }))
        try window.execute(.goBackToRoot)
        #expect(window.forward.count == NavigationWindow.maxForwardEntries)
        #expect(window.forward.first?.route.screen == "s0")
    }

    @Test func theForwardListIsBoundedInBytesAndNotChargedToTheContentCost() throws {
        let limits = GraphLimits(maxContentCost: 16 * 1024)
        let window = try NavigationWindow(root: .stacked(home), configuration: WindowConfiguration(limits: limits))
        let empty = window.contentCost
        let long = String(repeating: "x", count: 200)
        for index in 0..<20 { try window.execute(.stackAppend(.screen("s\(index)", params: ["text": long]))) }
        try window.execute(.goBackToRoot)
        #expect(window.contentCost == empty, "going back frees what it removes")
        #expect(!window.forward.isEmpty && window.forward.count < 20)
        #expect(NavigationWindow.cost(of: window.forward) <= limits.maxContentCost / 4)
        #expect(window.forward.first?.route.screen == "s0", "the far end is dropped first")
    }

    @Test func theForwardListSurvivesASnapshotAndItsJSON() throws {
        let window = try makeWindow(.stack([home, .screen("detail", tag: "d")]))
        try window.execute(.goBack)
        let snapshot = window.snapshot()
        let decoded = try JSONDecoder().decode(WindowSnapshot.self, from: Data(try snapshot.json()))
        #expect(decoded == snapshot)
        let restored = try NavigationWindow(snapshot: decoded)
        #expect(restored.forward == window.forward && restored.canGoForward)
        try restored.execute(.goForward)
        #expect(restored.resolveTag("d") != nil)
    }

    @Test func aSnapshotWithoutForwardLoadsWithAnEmptyList() throws {
        let window = try makeWindow(.stack([home, detail]))
        let text = String(decoding: try window.snapshot().json(), as: UTF8.self)
        #expect(!text.contains("forward"))
        let decoded = try JSONDecoder().decode(WindowSnapshot.self, from: Data(text.utf8))
        #expect(decoded.forward.isEmpty)
    }

    @Test func goForwardDecodesFromJSONWithAnOptionalCount() throws {
        let one = try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"goForward"}"#.utf8))
        #expect(one == .goForward(count: 1))
        let two = try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"goForward","count":2}"#.utf8))
        #expect(two == .goForward(count: 2))
        #expect(try roundTrip(two) == two)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"goForward","n":2}"#.utf8))
        }
    }

    @Test func aGuardWatchingTheReenteredScreenStopsGoForwardAndKeepsTheList() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.goBack)
        let version = window.version
        window.commitGate = CommitGate(screens: ["detail": .enter])
        let error = navigationError { () throws(NavigationError) in try window.execute(.goForward) }
        guard case .undecided(let change)? = error else {
            Issue.record("goForward was not stopped at the gate: \(String(describing: error))")
            return
        }
        #expect(change.entered.map(\.screen) == ["detail"])
        #expect(window.canGoForward && window.version == version)
    }

    @Test func aProtectedModelStillBlocksTheBackThatWouldRecordIt() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.protect(model: .id(3), reason: "unsaved", owner: nil))
        #expect(navigationError { () throws(NavigationError) in try window.execute(.goBack) } != nil)
        #expect(!window.canGoForward)
    }

    @Test func setStateClearsTheForwardList() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.goBack)
        try window.setState(try makeWindow(.stack([.screen("other")])).snapshot())
        #expect(!window.canGoForward)
    }

    @Test func aFailedBackLeavesTheForwardListAlone() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.goBack)
        expectRejected(window, .nothingToGoBack(from: 2)) { () throws(NavigationError) in try window.execute(.goBack) }
        #expect(window.canGoForward)
    }
}

extension NavigationWindow {
    /// The model carrying `tag`, or nil.
    func resolveTag(_ tag: String) -> ModelID? { try? resolve(.tag(tag)) }
}
