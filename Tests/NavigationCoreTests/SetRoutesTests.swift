import Foundation
import Testing

@testable import NavigationCore

/// `setRoutes`: the active branch (or a stack's branch) made equal to a route array in one change.
struct SetRoutesTests {
    /// Tabs `home` and `settings`, each a stack, `home` selected.
    static func window(configuration: WindowConfiguration = WindowConfiguration()) throws -> NavigationWindow {
        try NavigationWindow(
            root: .tabs([
                TabSpec(id: "home", title: "Home", model: .stack([.screen("home")])),
                TabSpec(id: "settings", title: "Settings", model: .stack([.screen("settings")])),
            ]),
            configuration: configuration)
    }

    static let target: [Route] = [
        .push("detail", params: ["id": "1"]), .sheet("editor", params: ["id": "1"], withNavigation: true), .push("preview"),
    ]

    @Test func theBranchBecomesTheRoutesInOneChange() throws {
        let window = try Self.window()
        let event = try window.execute(.setRoutes(Self.target))
        #expect(window.routes == Self.target)
        #expect(event.version == 1)
        #expect(event.started.count == 4)
    }

    @Test func givingTheRoutesBackChangesNothing() throws {
        let window = try Self.window()
        try window.execute(.setRoutes(Self.target))
        let before = window.snapshot()
        let event = try window.execute(.setRoutes(window.routes))
        #expect(event.isNoOp)
        #expect(window.version == 1)
        #expect(window.snapshot() == before)
    }

    @Test func theUnchangedPrefixKeepsItsModelsAndStartsNothing() throws {
        let window = try Self.window()
        try window.execute(.setRoutes([.push("a"), .push("b")]))
        let a = try #require(id("a", in: window))
        let b = try #require(id("b", in: window))
        let event = try window.execute(.setRoutes([.push("a"), .push("c")]))
        #expect(id("a", in: window) == a)
        #expect(event.finished == [b])
        #expect(event.started == [try #require(id("c", in: window))])
        #expect(event.steps.map(\.kind) == ["pop", "push"])
    }

    @Test func aRouteWithOtherParamsIsANewModel() throws {
        let window = try Self.window()
        try window.execute(.setRoutes([.push("detail", params: ["id": "1"])]))
        let first = try #require(id("detail", in: window))
        try window.execute(.setRoutes([.push("detail", params: ["id": "2"])]))
        #expect(id("detail", in: window) != first)
        #expect(window.routes == [.push("detail", params: ["id": "2"])])
    }

    @Test func layersGoBeforePopsInTheSteps() throws {
        let window = try Self.window()
        try window.execute(.setRoutes(Self.target))
        let event = try window.execute(.setRoutes([]))
        #expect(window.routes == [])
        #expect(event.steps.map(\.kind) == ["dismiss", "pop"])
        #expect(event.finished.count == 4)
    }

    @Test func stepsFollowTheGraphPushThenPresent() throws {
        let window = try Self.window()
        let event = try window.execute(.setRoutes(Self.target))
        #expect(event.steps.map(\.kind) == ["push", "present", "push"])
    }

    @Test func aPushOnAPlainSheetFailsNamingTheRoute() throws {
        let window = try Self.window()
        try window.execute(.setRoutes([.sheet("s")]))
        let sheet = try #require(id("s", in: window))
        expectRejected(window, .routeFailed(index: 1, .noStack(from: sheet))) { () throws(NavigationError) in
            try window.execute(.setRoutes([.sheet("s"), .push("x")]))
        }
    }

    @Test func aPushWithoutABaseStackFailsNamingTheRoute() throws {
        let window = try makeWindow(.screen("only"))
        expectRejected(window, .routeFailed(index: 0, .noStack(from: window.rootID))) { () throws(NavigationError) in
            try window.execute(.setRoutes([.push("x")]))
        }
    }

    @Test func aSheetOnACustomContainerIsPresentedByTheRoot() throws {
        let window = try makeWindow(.custom("panes", children: [.screen("a")]))
        // The root may present; its custom child may not (the last model that may present does).
        try window.execute(.setRoutes([.sheet("s")]))
        #expect(window.routes == [.sheet("s")])
    }

    @Test func anAlertStaysWhenNothingChanges() throws {
        let window = try Self.window()
        try window.execute(.setRoutes([.push("a")]))
        try window.execute(.present(.alert(DialogContent(title: "Saved"))))
        let alert = try #require(id("alert", in: window))
        let event = try window.execute(.setRoutes([.push("a")]))
        #expect(event.isNoOp)
        #expect(window.model(alert) != nil)
    }

    @Test func anAlertGoesWhenTheRoutesChange() throws {
        let window = try Self.window()
        try window.execute(.setRoutes([.push("a")]))
        try window.execute(.present(.alert(DialogContent(title: "Saved"))))
        let alert = try #require(id("alert", in: window))
        let event = try window.execute(.setRoutes([.push("a"), .sheet("s")]))
        #expect(window.model(alert) == nil)
        #expect(event.finished == [alert])
        #expect(window.routes == [.push("a"), .sheet("s")])
    }

    @Test func anotherStacksBranchIsSetWithoutTouchingTheActiveOne() throws {
        let window = try Self.window()
        try window.execute(.setRoutes([.push("a")]))
        let settings = try #require(id("settings", in: window).flatMap { window.model($0)?.parent })
        try window.execute(.setRoutes([.push("profile", params: ["edit": "1"])], stack: .id(settings)))
        #expect(window.routes(startingAt: settings) == [.push("profile", params: ["edit": "1"])])
        #expect(window.routes == [.push("a")])
    }

    @Test func aStackTargetThatIsNotAStackIsWrongKind() throws {
        let window = try Self.window()
        expectRejected(window, .wrongKind(window.rootID, expected: "stack")) { () throws(NavigationError) in
            try window.execute(.setRoutes([], stack: .id(window.rootID)))
        }
    }

    @Test func anUndeclaredScreenFailsNamingTheRoute() throws {
        let catalog = ScreenCatalog(["home": .init(), "settings": .init(), "detail": .init(required: ["id"])])
        let window = try Self.window(configuration: WindowConfiguration(screens: catalog))
        expectRejected(
            window, .routeFailed(index: 1, .unknownScreen("detial", suggestion: "detail"))
        ) { () throws(NavigationError) in
            try window.execute(.setRoutes([.push("detail", params: ["id": "1"]), .push("detial")]))
        }
    }

    @Test func aStackDeeperThanTheLimitFailsNamingTheFirstRouteOver() throws {
        let window = try Self.window(configuration: WindowConfiguration(limits: GraphLimits(maxStackDepth: 3)))
        let error = navigationError { () throws(NavigationError) in
            try window.execute(.setRoutes([.push("a"), .push("b"), .push("c")]))
        }
        guard case .routeFailed(2, .limitsExceeded) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(window.version == 0)
    }

    @Test func moreRoutesThanTheWindowMayHoldAreRefusedBeforeAnyWork() throws {
        let window = try Self.window(configuration: WindowConfiguration(limits: GraphLimits(maxModels: 8)))
        expectRejected(window, .limitsExceeded("9 routes; a window holds at most 8 models")) { () throws(NavigationError) in
            try window.execute(.setRoutes(Array(repeating: .push("x"), count: 9)))
        }
    }

    @Test func theIssuesBatchFormDecodes() throws {
        let batch = try CommandJSONTests.decodeBatch(
            #"[{"command":"setRoutes","routes":[{"style":"push","screen":"detail","params":{"id":"1"}},{"style":"sheet","screen":"editor","withNavigation":true,"params":{"id":"1"}}]},{"command":"setRoutes","routes":[],"stack":3}]"#)
        #expect(batch == [
            BatchCommand(.setRoutes([.push("detail", params: ["id": "1"]), .sheet("editor", params: ["id": "1"], withNavigation: true)])),
            BatchCommand(.setRoutes([], stack: 3)),
        ])
    }

    @Test func aBadRouteInABatchNamesTheRoutesKey() {
        #expect {
            try CommandJSONTests.decodeBatch(#"[{"command":"setRoutes","routes":[{"style":"push","screen":"a","parms":{}}]}]"#)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.last?.stringValue == "routes"
                && context.debugDescription.contains(#"unknown key "parms"; did you mean "params"?"#)
        }
    }

    @Test func anUnknownSetRoutesKeyIsRefused() {
        #expect(throws: DecodingError.self) {
            try CommandJSONTests.decodeBatch(#"[{"command":"setRoutes","routes":[],"stak":3}]"#)
        }
    }
}

extension NavigationStep {
    /// The step's kind, as its JSON names it.
    var kind: String {
        switch self {
        case .push: "push"
        case .pop: "pop"
        case .replacePath: "replacePath"
        case .present: "present"
        case .dismiss: "dismiss"
        case .selectTab: "selectTab"
        case .switchContent: "switch"
        case .replaceRoot: "replaceRoot"
        case .update: "update"
        case .appearance: "appearance"
        case .tabBarRule: "tabBarRule"
        case .selectChild: "selectChild"
        case .columnVisibility: "columnVisibility"
        case .collapse: "collapse"
        case .expand: "expand"
        case .rendererState: "rendererState"
        }
    }
}
