import Foundation
import Testing

@testable import NavigationCore

/// React Navigation's stack verbs on the executing model's stack: `popTo(name, params, {merge})` and `pop(count)`
/// with a source.
struct StackVerbTests {
    static func stack(_ screens: [ModelSpec]) throws -> NavigationWindow { try makeWindow(.stack(screens)) }
    static let home = ModelSpec.screen("home")

    /// `[home, a, b, c, d]` (ids 2…6); pop from `b` with count 2 removes `b` and `a`, keeps `c` and `d` above.
    @Test func popFromASourceRemovesItAndTheOnesBelowAndKeepsThoseAbove() throws {
        let window = try Self.stack([Self.home, .screen("a"), .screen("b"), .screen("c"), .screen("d")])
        let b = try #require(window.model(1)?.path?[2].model)
        let event = try window.execute(.pop(count: 2), from: b)
        #expect(screens(of: 1, in: window) == ["home", "c", "d"])
        #expect(event.finished.count == 2)
    }

    @Test func popNeverRemovesTheRootAndFromTheTopIsAPop() throws {
        let window = try Self.stack([Self.home, .screen("a"), .screen("b")])
        let a = try #require(window.model(1)?.path?[1].model)
        try window.execute(.pop(count: 5), from: a)
        #expect(screens(of: 1, in: window) == ["home", "b"])
        try window.execute(.pop())
        #expect(screens(of: 1, in: window) == ["home"])
        #expect(throws: NavigationError.self) { try window.execute(.pop()) }
        #expect(throws: NavigationError.self) { try window.execute(.pop(count: 0)) }
    }

    /// From a model inside an element (a container pushed on the stack), that element goes.
    @Test func popFromAModelInsideAnElementRemovesThatElement() throws {
        let window = try Self.stack([Self.home, .custom("pair", children: [.screen("x"), .screen("y")]), .screen("b")])
        let pair = try #require(window.model(1)?.path?[1].model)
        let inner = try #require(window.model(pair)?.children.first)
        try window.execute(.pop(), from: inner)
        #expect(screens(of: 1, in: window) == ["home", "b"])
    }

    @Test func popsBackToTheNearestElementShowingTheScreen() throws {
        let window = try Self.stack([Self.home, .screen("detail"), .screen("more"), .screen("detail"), .screen("last")])
        try window.execute(.popTo(screen: "detail"))
        #expect(screens(of: 1, in: window) == ["home", "detail", "more", "detail"])
    }

    @Test func theTopShowingTheScreenGetsItsParamsReplacedSameID() throws {
        let window = try Self.stack([Self.home, .screen("detail", params: ["id": "1", "tab": "a"])])
        let top = try #require(window.model(1)?.path?.last?.model)
        let event = try window.execute(.popTo(screen: "detail", params: ["id": "2"]))
        #expect(window.model(1)?.path?.last?.model == top)
        #expect(window.model(top)?.params == ["id": "2"])
        #expect(event.finished.isEmpty)
    }

    @Test func mergeKeepsTheParamsNotGiven() throws {
        let window = try Self.stack([Self.home, .screen("detail", params: ["id": "1", "tab": "a"]), .screen("more")])
        try window.execute(.popTo(screen: "detail", params: ["id": "2"], merge: true))
        #expect(window.routes.map(\.params) == [["id": "2", "tab": "a"]])
    }

    /// Not in the stack: the new screen takes the focused route's place (React's `replace`).
    @Test func aScreenNotInTheStackReplacesTheTop() throws {
        let window = try Self.stack([Self.home, .screen("detail"), .screen("more")])
        let event = try window.execute(.popTo(screen: "about", params: ["from": "x"]))
        #expect(screens(of: 1, in: window) == ["home", "detail", "about"])
        #expect(window.routes.last?.params == ["from": "x"])
        #expect(event.finished.count == 1 && event.started.count == 1)
    }

    @Test func atTheRootAScreenNotInTheStackReplacesTheRoot() throws {
        let window = try Self.stack([Self.home])
        try window.execute(.popTo(screen: "about"))
        #expect(screens(of: 1, in: window) == ["about"])
    }

    @Test func theRootShowingTheScreenPopsEverythingAbove() throws {
        let window = try Self.stack([Self.home, .screen("detail"), .screen("more")])
        try window.execute(.popTo(screen: "home"))
        #expect(screens(of: 1, in: window) == ["home"])
    }

    @Test func withoutAStackOrAScreenNameItFails() throws {
        let window = try makeWindow(.screen("alone"))
        #expect(throws: NavigationError.self) { try window.execute(.popTo(screen: "alone")) }
        let stacked = try Self.stack([Self.home, .screen("detail")])
        #expect(throws: NavigationError.self) { try stacked.execute(.popTo(screen: "")) }
        #expect(screens(of: 1, in: stacked) == ["home", "detail"])
    }

    @Test func itsJSONRoundTrips() throws {
        for json in [
            #"{"command":"popTo","screen":"detail"}"#, #"{"command":"popTo","screen":"detail","params":{"id":"1"},"merge":true}"#,
        ] {
            let command = try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8))
            let encoded = try JSONEncoder().encode(command)
            #expect(try JSONDecoder().decode(NavigationCommand.self, from: encoded) == command, "\(json)")
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(NavigationCommand.self, from: Data(#"{"command":"popTo","screen":"a","count":1}"#.utf8))
        }
    }

    /// What `popTo` popped can come back with `goForward`, like any back.
    @Test func whatItPoppedGoesForward() throws {
        let window = try Self.stack([Self.home, .screen("detail"), .screen("more")])
        try window.execute(.popTo(screen: "home"))
        try window.execute(.goForward(count: 2))
        #expect(screens(of: 1, in: window) == ["home", "detail", "more"])
    }

    // MARK: A screen's identity (React Navigation's `getId`)

    static func identified() throws -> NavigationWindow {
        let catalog = ScreenCatalog([
            "home": .init(), "about": .init(),
            "profile": .init(required: ["user"], optional: ["tab"], identity: ["user"]),
        ])
        return try NavigationWindow(root: .stack([.screen("home")]), configuration: WindowConfiguration(screens: catalog))
    }

    /// "Navigate to profile 42" with profile 42 below the top brings that very model to the top, params replaced.
    @Test func pushingAScreenWithTheSameIdentityBringsTheExistingOneToTheTop() throws {
        let window = try Self.identified()
        try window.execute(.stackAppend(.screen("profile", params: ["user": "42"])))
        let profile = window.activeModelID
        try window.execute(.stackAppend(.screen("about")))
        let event = try window.execute(.stackAppend(.screen("profile", params: ["user": "42", "tab": "posts"])))
        #expect(screens(of: 1, in: window) == ["home", "about", "profile"])
        #expect(window.activeModelID == profile)
        #expect(window.routes.last?.params == ["user": "42", "tab": "posts"])
        #expect(event.started.isEmpty && event.finished.isEmpty)
    }

    @Test func anotherIdentityIsPushedAsANewModel() throws {
        let window = try Self.identified()
        try window.execute(.stackAppend(.screen("profile", params: ["user": "42"])))
        try window.execute(.stackAppend(.screen("profile", params: ["user": "7"])))
        #expect(window.routes.map(\.params) == [["user": "42"], ["user": "7"]])
    }

    // MARK: pushParams (React Navigation)

    @Test func goBackRestoresPushedParamsBeforeItPops() throws {
        let window = try Self.stack([Self.home, .screen("search", params: ["q": "a"])])
        let search = window.activeModelID
        try window.execute(.pushParams(params: ["q": "b"]))
        try window.execute(.pushParams(params: ["q": "c"]))
        #expect(window.routes.last?.params == ["q": "c"])
        try window.execute(.goBack(result: nil))
        #expect(window.routes.last?.params == ["q": "b"] && window.activeModelID == search)
        try window.execute(.goBack(result: nil))
        #expect(window.routes.last?.params == ["q": "a"])
        #expect(window.abilities.canGoBack)
        try window.execute(.goBack(result: nil))
        #expect(screens(of: 1, in: window) == ["home"])
    }

    @Test func pushedParamsAreBoundedKeptInTheSnapshotAndUndoneWithAFailedBatch() throws {
        let window = try Self.stack([Self.home, .screen("search", params: ["q": "0"])])
        for index in 1...(NavigationWindow.maxParamsHistory + 5) { try window.execute(.pushParams(params: ["q": "\(index)"])) }
        let search = try #require(window.model(window.activeModelID))
        #expect(search.paramsHistory.count == NavigationWindow.maxParamsHistory)
        let json = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: json))
        try restored.execute(.goBack(result: nil))
        #expect(restored.routes.last?.params == ["q": "\(NavigationWindow.maxParamsHistory + 4)"])
        #expect(throws: NavigationError.self) {
            try window.apply([BatchCommand(.pushParams(params: ["q": "x"])), BatchCommand(.stackDropLast(0))])
        }
        #expect(window.model(window.activeModelID)?.paramsHistory.count == NavigationWindow.maxParamsHistory)
        #expect(window.routes.last?.params == ["q": "\(NavigationWindow.maxParamsHistory + 5)"])
    }

    /// Push and pop steps name their elements' transitions, as presentation steps do (`null` for the default).
    @Test func pushAndPopStepsCarryTheElementsTransitions() throws {
        let window = try Self.stack([Self.home])
        let pushed = try window.execute(.stackAppend([
            StackElementSpec(.screen("a"), transition: "zoom"), StackElementSpec(.screen("b")),
        ]))
        guard case .push(_, let models, let transitions)? = pushed.steps.first else { Issue.record("\(pushed.steps)"); return }
        #expect(transitions == ["zoom", nil] && models.count == 2)
        #expect(pushed.steps.first?.json.contains(#""transitions":["zoom",null]"#) == true)
        let popped = try window.execute(.stackDropLast(2))
        #expect(popped.steps.first?.json.contains(#""transitions":[null,"zoom"]"#) == true, "\(popped.steps)")
        let plain = try window.execute(.stackAppend(.screen("c")))
        #expect(plain.steps.first?.json.contains("transitions") == false)
    }
}
