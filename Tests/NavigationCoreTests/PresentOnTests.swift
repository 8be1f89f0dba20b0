import Foundation
import Testing

@testable import NavigationCore

/// `present` with `on` (exactly on a model, `replace`) and presentation transitions.
struct PresentOnTests {
    /// switched #1 → stack #2 (the switched model: a presenter) → home #3; `first` (#4) is presented on #2.
    func window() throws -> NavigationWindow {
        let window = try makeWindow(.switched(.stacked(home.tagged("home")).tagged("main")))
        try window.execute(.present(.sheet(.screen("first"))), from: 3)
        return window
    }

    @Test func presentOnPutsThePresentationOnExactlyThatModel() throws {
        let window = try window()
        #expect(window.model(2)?.presented == 4)
        try window.execute(.presentOn(.sheet(.screen("second")), on: .id(1)))
        #expect(window.model(1)?.presented == 5)
        #expect(window.model(4)?.presented == nil, "not stacked on top of the chain")
    }

    @Test func presentOnAModelThatAlreadyPresentsIsRefusedNamingWhatItPresents() throws {
        let window = try window()
        expectRejected(window, .alreadyPresenting(model: 2, presented: 4, screen: "first")) {
            () throws(NavigationError) in try window.execute(.presentOn(.sheet(.screen("second")), on: .id(2)))
        }
    }

    @Test func replaceDismissesWhatTheModelPresentsAndPresentsTheNewOneInOneChange() throws {
        let window = try window()
        try window.execute(.present(.sheet(.screen("above"))), from: 4)
        let version = window.version
        let event = try window.execute(.presentOn(.sheet(.screen("second")), on: .id(2), replace: true))
        #expect(window.version == version + 1)
        #expect(event.steps == [
            .dismiss(presenter: 2, model: 4, nested: [NavigationStep.Presentation(presenter: 4, model: 5, style: .sheet(detents: []))]),
            .present(presenter: 2, model: 6, style: .sheet(detents: []), nested: []),
        ])
        #expect(Set(event.finished) == [4, 5])
        #expect(event.started == [6])
        #expect(window.verifyPresenterIndex())
    }

    @Test func replaceOnAModelThatPresentsNothingJustPresents() throws {
        let window = try window()
        let event = try window.execute(.presentOn(.fullScreenCover(.screen("player")), on: .id(1), replace: true))
        #expect(event.steps == [.present(presenter: 1, model: 5, style: .fullScreenCover, nested: [])])
    }

    @Test func presentOnATagNamesTheTaggedModel() throws {
        let window = try window()
        try window.execute(.presentOn(.sheet(.screen("second")), on: .tag("main"), replace: true))
        #expect(window.model(2)?.presented == 5)
    }

    @Test func presentOnAnUnknownTagIsRefused() throws {
        let window = try window()
        expectRejected(window, .unknownTag("nope")) {
            () throws(NavigationError) in try window.execute(.presentOn(.sheet(.screen("second")), on: .tag("nope")))
        }
    }

    @Test func presentOnAStackElementWhosePresenterIsBusyIsRefusedAsAlreadyPresenting() throws {
        let window = try window()
        expectRejected(window, .alreadyPresenting(model: 2, presented: 4, screen: "first")) {
            () throws(NavigationError) in try window.execute(.presentOn(.sheet(.screen("second")), on: .tag("home")))
        }
    }

    /// SwiftUI's destinations present: a pushed screen's presentation is hosted by its nearest presenter on its
    /// behalf, its result goes to the screen, and it goes when the screen is popped.
    @Test func aPushedScreenPresentsThroughItsPresenterAndThePresentationGoesWhenItIsPopped() throws {
        // switched #1 → stack #2 → home #3, detail #4.
        let window = try makeWindow(.switched(.stack([home, .screen("detail")])))
        let event = try window.execute(.presentOn(.sheet(.screen("picker")), on: .id(4)))
        #expect(event.steps == [.present(presenter: 2, model: 5, style: .sheet(detents: []), nested: [])])
        #expect(window.model(5)?.resultTo == 4)
        let popped = try window.execute(.stackDropLast(1), from: 3)
        #expect(Set(popped.finished) == [4, 5])
        #expect(window.model(2)?.presented == nil)
        #expect(window.verifyPresenterIndex())
    }

    @Test func theResultOfAPresentationAPushedScreenAskedForGoesToThatScreen() throws {
        let window = try makeWindow(.switched(.stack([home, .screen("detail")])))
        try window.execute(.presentOn(.sheet(.screen("picker")), on: .id(4)))
        let event = try window.execute(.dismissReturning(result: .object(["colour": .string("red")])), from: 5)
        let delivered = try #require(event.messages.first { $0.message.name == NavigationMessage.resultName })
        #expect(delivered.recipient == 4)
    }

    @Test func presentOnAnAlertIsRefusedAsALeaf() throws {
        let window = try window()
        try window.execute(.present(.alert(DialogContent(title: "Hi"))), from: 4)
        expectRejected(window, .presenterIsLeaf(5)) {
            () throws(NavigationError) in try window.execute(.presentOn(.sheet(.screen("second")), on: .id(5)))
        }
    }

    @Test func replaceMeetsAProtectionMarkOnWhatItWouldDismiss() throws {
        let window = try window()
        try window.execute(.protect(model: .id(4), reason: "unsaved", owner: nil))
        expectRejected(window, .prevented(model: 4, reason: "unsaved", dialog: nil, owner: "")) {
            () throws(NavigationError) in try window.execute(.presentOn(.sheet(.screen("second")), on: .id(2), replace: true))
        }
    }

    @Test func presentWithOnDecodesAndEncodesItsKeys() throws {
        let json = #"{"command":"present","on":"tag:main","replace":true,"presentation":{"kind":"sheet","model":{"screen":"a"},"transition":"slide"}}"#
        let command = try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8))
        #expect(command == .presentOn(.sheet(.screen("a")).with(transition: "slide"), on: .tag("main"), replace: true))
        #expect(try roundTrip(command) == command)
        #expect(command.name == "present")
    }

    @Test func replaceWithoutOnIsRefusedWhenDecoded() {
        let json = #"{"command":"present","replace":true,"presentation":{"kind":"sheet","model":{"screen":"a"}}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NavigationCommand.self, from: Data(json.utf8)) }
    }

    @Test func aMalformedTransitionIsRefusedWhenDecoded() {
        for name in ["", "slide in", "a\u{1}", String(repeating: "x", count: 65)] {
            let json = #"{"kind":"fullScreenCover","model":{"screen":"a"},"transition":"# + name + #""}"#
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PresentationSpec.self, from: Data(json.utf8)) }
        }
    }

    @Test func aMalformedTransitionIsRefusedWhenRun() throws {
        let window = try window()
        expectRejected(window, .invalidSpec("transition \"a b\" may hold only ASCII letters, digits, '-', '_' and '.'")) {
            () throws(NavigationError) in try window.execute(.presentOn(.sheet(.screen("x")).with(transition: "a b"), on: .id(1)))
        }
    }

    @Test func aPresentationsTransitionIsInTheStateAndItsSteps() throws {
        let window = try window()
        let presented = try window.execute(.present(.fullScreenCover(.screen("player")).with(transition: "zoom")), from: 4)
        #expect(window.model(5)?.transition == "zoom")
        #expect(presented.steps == [.present(presenter: 4, model: 5, style: .fullScreenCover, nested: [], transition: "zoom")])
        #expect(NavigationStep.json(presented.steps).contains(#""transition":"zoom""#))
        let dismissed = try window.execute(.dismiss, from: 5)
        #expect(dismissed.steps == [.dismiss(presenter: 4, model: 5, nested: [], transition: "zoom")])
    }

    @Test func aPresentationsTransitionSurvivesASnapshotAndSetState() throws {
        let window = try window()
        try window.execute(.present(.sheet(.screen("player")).with(transition: "slide")), from: 4)
        let snapshot = try roundTrip(window.snapshot())
        #expect(snapshot.models.first { $0.id == 5 }?.transition == "slide")
        let restored = try NavigationWindow(snapshot: snapshot)
        #expect(restored.model(5)?.transition == "slide")
        try restored.setState(snapshot)
        #expect(restored.snapshot().models.first { $0.screen == "player" }?.transition == "slide")
    }

    @Test func aNestedPresentationsTransitionTravelsInTheOuterStep() throws {
        let window = try makeWindow(.stacked(home))
        let inner = PresentationSpec.sheet(.screen("inner")).with(transition: "fade")
        let event = try window.execute(.present(.sheet(ModelSpec.screen("outer").presenting(inner)).with(transition: "slide")))
        #expect(event.steps == [
            .present(
                presenter: 1, model: 3, style: .sheet(detents: []),
                nested: [NavigationStep.Presentation(presenter: 3, model: 4, style: .sheet(detents: []), transition: "fade")],
                transition: "slide"),
        ])
    }
}
