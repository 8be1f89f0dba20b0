import Foundation
import Testing

@testable import NavigationCore

/// `goBack`, `goBackToRoot`, `goBackTo`, `dismissAll` and dismissal with a result.
struct GoBackTests {
    /// home tabs (stack [home]) and settings tabs (stack [settings]) under a switched root.
    func tabsWindow(_ policy: TabPolicy = .default) throws -> NavigationWindow {
        try makeWindow(.switched(.tabs([
            TabSpec(id: "home", title: "Home", model: .stacked(home)),
            TabSpec(id: "settings", title: "Settings", model: .stacked(.screen("settings"))),
        ], policy: policy)))
    }

    let okAlert = PresentationSpec.alert(DialogContent(title: "Saved", actions: [DialogAction(id: "ok", title: "OK")]))

    @Test func goBackPopsAPush() throws {
        let window = try makeWindow(.stack([home, detail]))
        #expect(window.abilities.canGoBack)
        let event = try window.execute(.goBack)
        #expect(screens(of: 1, in: window) == ["home"])
        #expect(event.steps == [.pop(stack: 1, models: [3])])
        #expect(!window.abilities.canGoBack)
    }

    @Test func goBackDismissesAPlainCover() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.fullScreenCover(.screen("player"))))
        #expect(window.abilities.canGoBack)
        try window.execute(.goBack)
        #expect(window.model(3)?.presented == nil && window.model(1)?.presented == nil)
        #expect(window.activeModelID == 3)
    }

    @Test func goBackDismissesAPresentedStackAtItsRootWhole() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        let sheet = try #require(window.model(2)?.presented)
        try window.execute(.goBack)
        #expect(window.model(sheet) == nil)
        #expect(window.model(2)?.presented == nil)
    }

    @Test func goBackPopsInsideAPresentedStackBeforeDismissingIt() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.sheet(.stack([.screen("editor"), .screen("more")]))))
        let sheet = try #require(window.model(2)?.presented)
        try window.execute(.goBack)
        #expect(screens(of: sheet, in: window) == ["editor"])
    }

    @Test func goBackDismissesAnAlertOnTop() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        try window.execute(.present(okAlert))
        try window.execute(.goBack)
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home", "detail"])
    }

    @Test func goBackWithNothingToRemoveFailsAndCanGoBackIsFalse() throws {
        let window = try tabsWindow()
        #expect(!window.abilities.canGoBack)
        expectRejected(window, .nothingToGoBack(from: 4)) { () throws(NavigationError) in try window.execute(.goBack) }
    }

    @Test func goBackAfterAPushUnderASheetDismissesTheSheetFirst() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        try window.execute(.present(.sheet(.screen("editor"))))
        try window.execute(.goBack)
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home", "detail"])
    }

    /// Presented from the stack itself (its presenter): the result goes to the presenter.
    @Test func goBackWithAResultDeliversItToThePresenterInTheSameChange() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.sheet(.screen("editor"))), from: 2)
        _ = window.drainMessages()
        let event = try window.execute(.goBack(result: .object(["saved": .bool(true)])))
        let result = try #require(event.messages.first { $0.message.name == "result" })
        #expect(result.recipient == 2)
        #expect(result.message.payload == #"{"saved":true}"#)
        #expect(event.finished == [4])
    }

    @Test func goBackWithAResultAfterAPopDeliversItToTheNewTop() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.goBack(result: .string("picked")))
        let result = try #require(event.messages.first { $0.message.name == "result" })
        #expect(result.recipient == 2)
        #expect(result.message.payload == #""picked""#)
    }

    /// The sheet is presented by the switched container (#1) for the screen that asked for it (`home`, #3): the
    /// result goes to that screen, as Circuit's answering navigator and go_router's `pop(result)` deliver it.
    @Test func dismissWithAResultDeliversItToTheScreenThatOpenedIt() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        let event = try window.execute(.dismissReturning(result: .object(["id": .number(7)])))
        let result = try #require(event.messages.first { $0.message.name == "result" })
        #expect(result.recipient == 3 && result.message.payload == #"{"id":7}"#)
        #expect(window.model(2)?.presented == nil)
    }

    @Test func aPushedScreenReceivesTheResultOfTheSheetItOpenedThroughGoBack() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        let opener = window.activeModelID
        try window.execute(.present(.sheet(.screen("editor"))))
        let event = try window.execute(.goBack(result: .string("saved")))
        let result = try #require(event.messages.first { $0.message.name == "result" })
        #expect(result.recipient == opener)
    }

    /// The screen that opened a sheet is popped from under it: the sheet goes with it, in the same change (SwiftUI's
    /// sheet goes with the destination that presented it); a sheet the stack itself opened stays.
    @Test func aSheetGoesWithThePushedScreenThatOpenedIt() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        let stack = try #require(window.model(1)?.switchedModel)
        try window.execute(.present(.sheet(.screen("editor"))))
        let event = try window.execute(.stackDropLast(1), from: stack)
        #expect(window.model(stack)?.presented == nil)
        #expect(event.steps.first.map { if case .dismiss = $0 { true } else { false } } == true, "\(event.steps)")
        try window.execute(.stackAppend(.screen("more")))
        try window.execute(.present(.sheet(.screen("editor"))), from: stack)
        try window.execute(.stackDropLast(1), from: stack)
        #expect(window.model(stack)?.presented != nil)
    }

    /// It survives a snapshot (`resultTo` in the model's state).
    @Test func theOpenerIsKeptInTheSnapshot() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        let opener = window.activeModelID
        try window.execute(.present(.sheet(.screen("editor"))))
        let json = try JSONEncoder().encode(window.snapshot())
        let restored = try NavigationWindow(snapshot: try JSONDecoder().decode(WindowSnapshot.self, from: json))
        let event = try restored.execute(.dismissReturning(result: .null))
        #expect(event.messages.first { $0.message.name == "result" }?.recipient == opener)
    }

    @Test func dismissWithAResultWithNothingToDismissChangesNothing() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .nothingToDismiss(from: 2)) { () throws(NavigationError) in
            try window.execute(.dismissReturning(result: .null))
        }
    }

    @Test func aResultOverTheTextLimitIsRefusedBeforeAnythingChanges() throws {
        var limits = GraphLimits()
        limits.maxTextBytes = 16
        let window = try NavigationWindow(
            root: .switched(.stacked(home)), configuration: WindowConfiguration(limits: limits))
        try window.execute(.present(.sheet(.screen("editor"))))
        expectRejected(window, .limitsExceeded("a result is 27 bytes; texts are limited to 16")) {
            () throws(NavigationError) in try window.execute(.goBack(result: .string(String(repeating: "x", count: 25))))
        }
    }

    @Test func goBackToRootDismissesEveryLayerAndPopsInOneChange() throws {
        let window = try makeWindow(.switched(.stack([home, detail, .screen("more")])))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        try window.execute(.present(.fullScreenCover(.screen("player"))))
        try window.execute(.present(okAlert))
        let before = window.version
        let event = try window.execute(.goBackToRoot)
        #expect(window.version == before + 1)
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home"])
        #expect(event.steps.count == 2)
        guard case .dismiss(2, _, let nested, _) = event.steps.first else { Issue.record("\(event.steps)"); return }
        #expect(nested.count == 2)
        #expect(event.steps.last == .pop(stack: 2, models: [5, 4]))
    }

    @Test func goBackToRootAtTheRootIsANoOp() throws {
        let window = try makeWindow(.stacked(home))
        let event = try window.execute(.goBackToRoot)
        #expect(event.version == 0 && window.version == 0)
    }

    @Test func dismissAllKeepsTheStack() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        try window.execute(.present(.sheet(.screen("nested"))))
        try window.execute(.dismissAll)
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home", "detail"])
    }

    @Test func dismissAllWithNothingPresentedIsANoOp() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.dismissAll)
        #expect(event.version == 0)
        #expect(screens(of: 1, in: window) == ["home", "detail"])
    }

    @Test func goBackToAScreenAcrossLayers() throws {
        let window = try makeWindow(.switched(.stack([home, detail, .screen("more")])))
        try window.execute(.present(.sheet(.stack([.screen("editor"), .screen("page")]))))
        try window.execute(.goBackTo(.screen("detail")))
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home", "detail"])
    }

    /// FlowStacks' rule: the nearest match counting from the top, the top included; a match on top changes nothing.
    @Test func goBackToAScreenShownOnTopChangesNothing() throws {
        let window = try makeWindow(.stack([home, detail, .screen("more"), detail, detail]))
        let event = try window.execute(.goBackTo(.screen("detail")))
        #expect(screens(of: 1, in: window) == ["home", "detail", "more", "detail", "detail"])
        #expect(event.steps.isEmpty && event.finished.isEmpty)
    }

    @Test func goBackToAScreenFindsTheNearestMatchFromTheTop() throws {
        let window = try makeWindow(.stack([home, detail, .screen("more"), detail, .screen("last")]))
        try window.execute(.goBackTo(.screen("detail")))
        #expect(screens(of: 1, in: window) == ["home", "detail", "more", "detail"])
    }

    /// The screen's value: `[detail{1}, detail{9}, about]` back to `detail{1}` lands on detail 1, not the nearer 9.
    @Test func goBackToAScreenValueMatchesItsParams() throws {
        let one = ModelSpec.screen("detail", params: ["id": "1"])
        let nine = ModelSpec.screen("detail", params: ["id": "9", "tab": "a"])
        let window = try makeWindow(.stack([home, one, nine, .screen("about")]))
        try window.execute(.goBackTo(.screen("detail", params: .equal(["id": "1"]))))
        #expect(window.routes.map(\.params) == [["id": "1"]])
        #expect(throws: NavigationError.self) {
            try window.execute(.goBackTo(.screen("detail", params: .equal(["id": "9"]))))
        }
    }

    /// A predicate on params: the nearest route whose params include the given pairs.
    @Test func goBackToAScreenWithParamsContainingMatchesASubset() throws {
        let one = ModelSpec.screen("detail", params: ["id": "1", "tab": "a"])
        let nine = ModelSpec.screen("detail", params: ["id": "9", "tab": "b"])
        let window = try makeWindow(.stack([home, one, nine, .screen("about")]))
        try window.execute(.goBackTo(.screen("detail", params: .containing(["tab": "a"]))))
        #expect(window.routes.map(\.params) == [["id": "1", "tab": "a"]])
    }

    @Test func goBackToTakesParamsOnlyWithAScreen() throws {
        for json in [
            #"{"command":"goBackTo","tag":"x","params":{"id":"1"}}"#,
            #"{"command":"goBackTo","screen":"x","params":{},"paramsContaining":{}}"#,
        ] {
            #expect(throws: (any Error).self, "\(json)") { try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8)) }
        }
        let json = #"{"command":"goBackTo","paramsContaining":{"id":"1"},"screen":"detail"}"#
        let command = try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8))
        #expect(command == .goBackTo(.screen("detail", params: .containing(["id": "1"]))))
        let encoded = String(decoding: try JSONEncoder().encode(command), as: UTF8.self)
        #expect(try JSONDecoder().decode(NavigationCommand.self, from: Data(encoded.utf8)) == command)
    }

    @Test func goBackToThePresentedStacksRootScreenKeepsThePresentation() throws {
        let window = try makeWindow(.switched(.stacked(home)))
        try window.execute(.present(.sheet(.stack([.screen("editor"), .screen("page"), .screen("more")]))))
        let sheet = try #require(window.model(2)?.presented)
        try window.execute(.goBackTo(.screen("editor")))
        #expect(screens(of: sheet, in: window) == ["editor"])
    }

    @Test func goBackToTheBaseScreenGoesToTheRoot() throws {
        let window = try makeWindow(.switched(.stack([home, detail])))
        try window.execute(.present(.sheet(.screen("editor"))))
        try window.execute(.goBackTo(.screen("home")))
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home"])
    }

    @Test func goBackToAModelID() throws {
        let window = try makeWindow(.stack([home, detail, .screen("more"), .screen("last")]))
        try window.execute(.goBackTo(.model(3)))
        #expect(screens(of: 1, in: window) == ["home", "detail"])
    }

    @Test func goBackToAnIndexKeepsThatRoute() throws {
        let window = try makeWindow(.switched(.stack([home, detail, .screen("more")])))
        try window.execute(.present(.sheet(.screen("editor"))))
        // Routes: [push detail, push more, sheet editor]; index 0 keeps push detail.
        try window.execute(.goBackTo(.index(0)))
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home", "detail"])
    }

    @Test func goBackToTheTopIndexChangesNothing() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.goBackTo(.index(0)))
        #expect(event.version == 0)
    }

    @Test func goBackToSomethingNotOnTheBranchFailsNamingIt() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .routeNotFound("screen \"profile\"")) { () throws(NavigationError) in
            try window.execute(.goBackTo(.screen("profile")))
        }
        expectRejected(window, .routeNotFound("route index 3 (the route view has 1 routes)")) {
            () throws(NavigationError) in try window.execute(.goBackTo(.index(3)))
        }
    }

    @Test func goBackToATagGoesBackToTheTaggedModelAcrossLayers() throws {
        let window = try makeWindow(.switched(.stack([home, .screen("detail", tag: "order"), .screen("more")])))
        try window.execute(.present(.sheet(.stacked(.screen("editor")))))
        try window.execute(.goBackTo(.tag("order")))
        #expect(window.model(1)?.presented == nil && window.model(2)?.presented == nil)
        #expect(screens(of: 2, in: window) == ["home", "detail"])
    }

    @Test func goBackToAnUnknownTagIsUnknownTag() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .unknownTag("nope")) { () throws(NavigationError) in
            try window.execute(.goBackTo(.tag("nope")))
        }
    }

    @Test func goBackToTakesExactlyOneSelector() throws {
        for json in [#"{"command":"goBackTo"}"#, #"{"command":"goBackTo","screen":"a","index":0}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8)) }
        }
    }

    @Test func theNewCommandsRoundTripThroughJSON() throws {
        let commands: [NavigationCommand] = [
            .goBack, .goBack(result: .object(["a": .string("b")])), .goBackToRoot, .dismissAll,
            .goBackTo(.screen("detail")), .goBackTo(.model(12)), .goBackTo(.index(0)), .goBackTo(.tag("order")),
            .goBackTo(.model(.tag("order"))),
            .dismissReturning(result: .array([.bool(true)])),
        ]
        for command in commands { #expect(try roundTrip(command) == command) }
        #expect(try jsonText(NavigationCommand.goBackTo(.index(0))) == #"{"command":"goBackTo","index":0}"#)
        #expect(try jsonText(NavigationCommand.dismissReturning(result: .string("x"))) == #"{"command":"dismiss","result":"x"}"#)
    }

    @Test func aFailedGoBackInABatchUndoesTheEarlierEntries() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .batchCommandFailed(index: 1, .nothingToGoBack(from: 2))) { () throws(NavigationError) in
            try window.apply([BatchCommand(.goBack), BatchCommand(.goBack)])
        }
    }
}

/// `CanGoBack` against `goBack` itself over random graphs: the ability is true exactly when a dry run of `goBack`
/// succeeds and changes the window.
struct CanGoBackAgreementTests {
    /// A small deterministic generator (SplitMix64), so a failure names a seed that reproduces it.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let okAlert = PresentationSpec.alert(DialogContent(title: "Saved", actions: [DialogAction(id: "ok", title: "OK")]))

    func command(_ random: inout Random) -> NavigationCommand {
        switch random.next(10) {
        case 0, 1: .stackAppend(.screen("detail"))
        case 2: .present(.sheet(.stacked(.screen("editor"))))
        case 3: .present(.fullScreenCover(.screen("player")))
        case 4: .present(Self.okAlert)
        case 5: .tabsSelectItem(["a", "b", "c"][random.next(3)])
        case 6: .goBack
        case 7: .goBackTo(.index(random.next(3)))
        case 8: .dismissAll
        default: .present(.sheet(.tabs(["x", "y"].map { TabSpec(id: $0, title: $0, model: .stacked(.screen($0))) },
                                       policy: TabPolicy(backBehavior: .order))))
        }
    }

    @Test(arguments: [TabBackBehavior.none, .history, .order, .firstTab])
    func canGoBackIsTrueExactlyWhenGoBackChangesTheWindow(_ behavior: TabBackBehavior) throws {
        for seed in UInt64(1)...40 {
            var random = Random(state: seed)
            let window = try makeWindow(.switched(.tabs(["a", "b", "c"].map {
                TabSpec(id: $0, title: $0, model: .stacked(.screen($0)))
            }, policy: TabPolicy(reselect: .popToRoot, backBehavior: behavior))))
            for step in 0..<40 {
                _ = try? window.execute(command(&random))
                let dry = try? window.dryRun([BatchCommand(.goBack)])
                let changes = dry.map { $0.version == window.version + 1 } ?? false
                #expect(window.abilities.canGoBack == changes, "seed \(seed), step \(step):\n\(window.debugTree())")
                #expect(window.verifyPresenterIndex(), "seed \(seed), step \(step)")
            }
        }
    }
}
