import Foundation
import Testing

@testable import NavigationCore

/// `setParams`: a live model's params and title updated in place.
struct SetParamsTests {
    @Test func mergeOverwritesTheGivenKeysAndKeepsTheOthers() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1", "mode": "view"])]))
        try window.execute(.setParams(params: ["id": "2"]))
        #expect(window.model(3)?.params == ["id": "2", "mode": "view"])
    }

    @Test func replaceMakesTheParamsExactlyTheGivenOnes() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1", "mode": "view"])]))
        try window.execute(.setParams(params: ["id": "2"], merge: false))
        #expect(window.model(3)?.params == ["id": "2"])
    }

    @Test func theModelKeepsItsIdAndNothingStartsOrFinishes() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let event = try window.execute(.setParams(params: ["id": "2"]))
        #expect(event.started.isEmpty && event.finished.isEmpty && event.messages.isEmpty)
        #expect(window.activeModelID == 3 && window.version == 1)
    }

    @Test func theChangeHasOneUpdateStep() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let event = try window.execute(.setParams(params: ["id": "2"]))
        #expect(event.steps == [.update(model: 3)])
        #expect(NavigationStep.json(event.steps) == #"[{"kind":"update","model":3}]"#)
        #expect(event.modified == [3])
    }

    @Test func theTitleChangesInPlace() throws {
        let window = try makeWindow(.stacked(home))
        try window.execute(.setParams(params: nil, title: "Home"))
        #expect(window.model(2)?.title == "Home")
    }

    @Test func aModelIsAddressedByTag() throws {
        let window = try makeWindow(.stack([.screen("list", tag: "list"), .screen("detail", params: ["id": "1"])]))
        try window.execute(.setParams(model: .tag("list"), params: ["filter": "new"]))
        #expect(window.model(2)?.params == ["filter": "new"])
        #expect(window.model(3)?.params == ["id": "1"])
    }

    @Test func sameParamsChangeNothing() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let event = try window.execute(.setParams(params: ["id": "1"]))
        #expect(event.version == 0 && window.version == 0)
    }

    @Test func anUnknownModelIsRefused() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .unknownModel(99)) { () throws(NavigationError) in
            try window.execute(.setParams(model: 99, params: ["a": "b"]))
        }
    }

    @Test func nothingToSetIsRefused() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .invalidSpec("setParams needs params or a title")) { () throws(NavigationError) in
            try window.execute(.setParams(params: nil, title: nil))
        }
    }

    @Test func paramsTheScreenDoesNotTakeAreRefused() throws {
        let catalog = ScreenCatalog(["home": .init(), "detail": .init(required: ["id"])])
        let window = try NavigationWindow(
            root: .stack([home, .screen("detail", params: ["id": "1"])]), configuration: WindowConfiguration(screens: catalog))
        expectRejected(window, .invalidSpec("screen 'detail' has no parameter 'idd'; did you mean 'id'?")) {
            () throws(NavigationError) in try window.execute(.setParams(params: ["idd": "2"]))
        }
        expectRejected(window, .invalidSpec("screen 'detail' requires parameter 'id'")) { () throws(NavigationError) in
            try window.execute(.setParams(params: [:], merge: false))
        }
    }

    @Test func theContentCostFollowsTheParams() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let before = window.contentCost
        try window.execute(.setParams(params: ["note": String(repeating: "x", count: 1000)]))
        #expect(window.contentCost == before + ContentCost.of("note") + ContentCost.of(String(repeating: "x", count: 1000)) + 2)
        let restored = try NavigationWindow(snapshot: window.snapshot())
        #expect(restored.contentCost == window.contentCost)
    }

    @Test func aChangeOverTheContentLimitIsRefused() throws {
        var limits = GraphLimits()
        let probe = try makeWindow(.stacked(home))
        limits.maxContentCost = probe.contentCost + 100
        let window = try NavigationWindow(root: .stacked(home), configuration: WindowConfiguration(limits: limits))
        let error = navigationError { () throws(NavigationError) in
            try window.execute(.setParams(params: ["note": String(repeating: "x", count: 200)]))
        }
        guard case .limitsExceeded = error else { Issue.record("\(String(describing: error))"); return }
        #expect(window.model(2)?.params == [:])
        #expect(window.contentCost == probe.contentCost)
    }

    @Test func aFailedBatchRestoresTheParams() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        expectRejected(window, .batchCommandFailed(index: 1, .noTabs(from: 3))) { () throws(NavigationError) in
            try window.apply([BatchCommand(.setParams(params: ["id": "2"], title: "T")), BatchCommand(.tabsSelectItem("x"))])
        }
        #expect(window.model(3)?.params == ["id": "1"] && window.model(3)?.title == nil)
    }

    @Test func theJSONFormTakesModelOrTag() throws {
        let decoder = JSONDecoder()
        let byModel = try decoder.decode(
            NavigationCommand.self, from: Data(#"{"command":"setParams","model":12,"params":{"id":"2"},"title":"T","merge":true}"#.utf8))
        #expect(byModel == .setParams(model: 12, params: ["id": "2"], title: "T", merge: true))
        let byTag = try decoder.decode(NavigationCommand.self, from: Data(#"{"command":"setParams","tag":"t","params":{}}"#.utf8))
        #expect(byTag == .setParams(model: .tag("t"), params: [:]))
        #expect(try roundTrip(byModel) == byModel)
        #expect(throws: DecodingError.self) {
            try decoder.decode(NavigationCommand.self, from: Data(#"{"command":"setParams","model":1,"tag":"t","params":{}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(NavigationCommand.self, from: Data(#"{"command":"setParams","model":1}"#.utf8))
        }
    }
}

/// `stackAppend` with `singleTop`: no second copy of the screen on top.
struct SingleTopTests {
    @Test func theTopShowingTheScreenIsUpdatedInstead() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let event = try window.execute(.stackAppend([StackElementSpec(.screen("detail", params: ["id": "2"]))], singleTop: true))
        #expect(screens(of: 1, in: window) == ["home", "detail"])
        #expect(window.model(3)?.params == ["id": "2"])
        #expect(event.started.isEmpty && event.finished.isEmpty)
        #expect(event.steps == [.update(model: 3)])
    }

    @Test func anotherScreenIsPushedAsUsual() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.stackAppend([StackElementSpec(.screen("profile"))], singleTop: true))
        #expect(screens(of: 1, in: window) == ["home", "detail", "profile"])
    }

    @Test func withoutSingleTopASecondCopyIsPushed() throws {
        let window = try makeWindow(.stack([home, detail]))
        try window.execute(.stackAppend(detail))
        #expect(screens(of: 1, in: window) == ["home", "detail", "detail"])
    }

    @Test func theOtherModelsArePushedAboveTheUpdatedTop() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let event = try window.execute(
            .stackAppend([StackElementSpec(.screen("detail", params: ["id": "2"])), StackElementSpec(.screen("profile"))], singleTop: true))
        #expect(screens(of: 1, in: window) == ["home", "detail", "profile"])
        #expect(event.steps == [.update(model: 3), .push(stack: 1, models: [4])])
    }

    @Test func aSpecWithAnotherTagIsADifferentElement() throws {
        let window = try makeWindow(.stack([home, .screen("detail", tag: "a")]))
        try window.execute(.stackAppend([StackElementSpec(.screen("detail", tag: "b"))], singleTop: true))
        #expect(screens(of: 1, in: window) == ["home", "detail", "detail"])
    }

    @Test func theSameParamsChangeNothing() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"])]))
        let event = try window.execute(.stackAppend([StackElementSpec(.screen("detail", params: ["id": "1"]))], singleTop: true))
        #expect(event.version == 0)
    }

    @Test func theJSONFormCarriesSingleTop() throws {
        let command = try JSONDecoder().decode(
            NavigationCommand.self, from: Data(#"{"command":"stackAppend","models":[{"screen":"detail"}],"singleTop":true}"#.utf8))
        #expect(command == .stackAppend([StackElementSpec(detail)], singleTop: true))
        #expect(try roundTrip(command) == command)
    }
}

/// `bringToFront`: an existing element moves to the top of its stack, keeping its id.
struct BringToFrontTests {
    @Test func theTopmostElementShowingTheScreenMovesToTheTop() throws {
        let window = try makeWindow(.stack([home, .screen("detail", params: ["id": "1"]), .screen("detail", params: ["id": "2"]), .screen("profile")]))
        let event = try window.execute(.bringToFront(.screen("detail")))
        #expect(window.model(1)?.path?.map(\.model) == [2, 3, 5, 4])
        #expect(event.started.isEmpty && event.finished.isEmpty)
        #expect(event.steps == [.replacePath(stack: 1, from: [2, 3, 4, 5], to: [2, 3, 5, 4])])
        #expect(window.activeModelID == 4)
    }

    @Test func aTaggedElementMovesToTheTopOfItsStack() throws {
        let window = try makeWindow(.stack([home, .screen("list", tag: "list"), detail]))
        try window.execute(.bringToFront(.model(.tag("list"))))
        #expect(screens(of: 1, in: window) == ["home", "detail", "list"])
    }

    @Test func theStackElementHoldingATaggedModelMoves() throws {
        let window = try makeWindow(.stack([home, ModelSpec.custom("panes", children: [.screen("pane", tag: "pane")]), detail]))
        try window.execute(.bringToFront(.model(.tag("pane"))))
        #expect(screens(of: 1, in: window) == ["home", "detail", "panes"])
    }

    @Test func theElementOnTopAlreadyChangesNothing() throws {
        let window = try makeWindow(.stack([home, detail]))
        let event = try window.execute(.bringToFront(.screen("detail")))
        #expect(event.version == 0 && window.version == 0)
    }

    @Test func anAbsentScreenIsRefusedNamingIt() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .screenNotInStack("profile", stack: 1)) { () throws(NavigationError) in
            try window.execute(.bringToFront(.screen("profile")))
        }
    }

    @Test func anUnknownTagIsRefused() throws {
        let window = try makeWindow(.stack([home, detail]))
        expectRejected(window, .unknownTag("t")) { () throws(NavigationError) in
            try window.execute(.bringToFront(.model(.tag("t"))))
        }
    }

    @Test func aModelInNoStackIsRefused() throws {
        let window = try makeWindow(ModelSpec.switched(.screen("login", tag: "login")))
        expectRejected(window, .noStack(from: 2)) { () throws(NavigationError) in
            try window.execute(.bringToFront(.model(.tag("login"))))
        }
    }

    @Test func theJSONFormTakesScreenTagOrModel() throws {
        let decoder = JSONDecoder()
        func decode(_ text: String) throws -> NavigationCommand { try decoder.decode(NavigationCommand.self, from: Data(text.utf8)) }
        #expect(try decode(#"{"command":"bringToFront","screen":"detail"}"#) == .bringToFront(.screen("detail")))
        #expect(try decode(#"{"command":"bringToFront","tag":"t"}"#) == .bringToFront(.model(.tag("t"))))
        #expect(try decode(#"{"command":"bringToFront","model":4}"#) == .bringToFront(.model(4)))
        #expect(throws: DecodingError.self) { try decode(#"{"command":"bringToFront","screen":"a","tag":"t"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"command":"bringToFront"}"#) }
        #expect(try roundTrip(NavigationCommand.bringToFront(.model(.tag("t")))) == .bringToFront(.model(.tag("t"))))
    }
}
