import Foundation
import Testing

@testable import NavigationCore

/// Selectable custom containers: the selected child, `selectChild`, its step and report.
struct SelectChildTests {
    /// A custom container of kind `segments` (id 1) with three stacks: a (2, root 3), b (4, root 5), c (6, root 7).
    static func segments(selected: Int? = nil) throws -> NavigationWindow {
        try makeWindow(
            .custom(
                "segments",
                children: [
                    ModelSpec.stacked(.screen("a")).tagged("a"), ModelSpec.stacked(.screen("b")).tagged("b"),
                    ModelSpec.stacked(.screen("c")).tagged("c"),
                ], selected: selected
            ).tagged("segments"))
    }

    /// A presented custom container named by no screen shows its kind in the route view (JSON and Swift alike),
    /// not the generic tag `custom`.
    @Test func aPresentedCustomContainerWithoutAScreenIsRoutedUnderItsKind() throws {
        let json = #"{"kind":"custom","customKind":"carousel","children":[{"kind":"screen","screen":"a"}]}"#
        let decoded = try JSONDecoder().decode(ModelSpec.self, from: Data(json.utf8))
        #expect(decoded.screen == "carousel")
        for spec in [decoded, ModelSpec.custom("carousel", children: [.screen("a")])] {
            let window = try makeWindow(.stacked(.screen("home")))
            try window.execute(.present(.sheet(spec)))
            #expect(window.routes.map(\.screen) == ["carousel"], "\(window.routes)")
        }
    }

    @Test func withoutSelectedTheLastChildIsSelectedAsBefore() throws {
        let window = try Self.segments()
        #expect(window.model(1)?.content == .custom(kind: "segments", children: [2, 4, 6], selected: 2))
        #expect(window.activeModelID == 7)
    }

    @Test func theSpecsSelectedChildIsTheActiveBranch() throws {
        let window = try Self.segments(selected: 0)
        #expect(window.activeModelID == 3)
    }

    @Test func aSelectedIndexOutOfRangeInASpecIsAnInvalidSpec() throws {
        #expect(throws: NavigationError.self) { try Self.segments(selected: 3) }
    }

    @Test func selectChildByIndexMovesTheActiveBranchAndRecordsAStep() throws {
        let window = try Self.segments()
        let event = try window.execute(.selectChild(container: 1, child: .index(0)))
        #expect(window.activeModelID == 3)
        #expect(event.steps == [.selectChild(container: 1, child: 2, previous: 6)])
        #expect(event.started.isEmpty && event.finished.isEmpty)
    }

    @Test func pushesGoToTheSelectedChildsStack() throws {
        let window = try Self.segments()
        try window.execute(.selectChild(container: nil, child: .index(1)))
        try window.execute(.stackAppend(.screen("detail")))
        #expect(screens(of: 4, in: window) == ["b", "detail"])
        #expect(window.routes == [.push("detail")])
        #expect(window.abilities.canGoBack)
        try window.execute(.selectChild(container: .tag("segments"), child: .index(0)), from: 8)
        #expect(window.routes.isEmpty)
        #expect(!window.abilities.canGoBack)
    }

    @Test func selectChildByTagOrModelSelectsThatChild() throws {
        let window = try Self.segments()
        try window.execute(.selectChild(container: nil, child: .model(.tag("a"))))
        #expect(window.activeModelID == 3)
        try window.execute(.selectChild(container: nil, child: .model(.id(4))), from: 3)
        #expect(window.activeModelID == 5)
    }

    @Test func selectingTheSelectedChildChangesNothing() throws {
        let window = try Self.segments()
        let event = try window.execute(.selectChild(container: 1, child: .index(2)))
        #expect(event.isNoOp)
    }

    @Test func anIndexOutOfRangeIsAnUnknownChild() throws {
        let window = try Self.segments()
        expectRejected(window, .unknownChild(container: 1, child: "index 3", count: 3)) { () throws(NavigationError) in
            try window.execute(.selectChild(container: 1, child: .index(3)))
        }
    }

    @Test func aModelThatIsNotAChildIsAnUnknownChild() throws {
        let window = try Self.segments()
        expectRejected(window, .unknownChild(container: 1, child: "model #3", count: 3)) { () throws(NavigationError) in
            try window.execute(.selectChild(container: 1, child: .model(3)))
        }
    }

    @Test func aContainerThatIsNotCustomIsTheWrongKind() throws {
        let window = try Self.segments()
        expectRejected(window, .wrongKind(2, expected: "custom container")) { () throws(NavigationError) in
            try window.execute(.selectChild(container: 2, child: .index(0)))
        }
    }

    @Test func withoutACustomContainerAboveTheCommandFailsWithNoContainer() throws {
        let window = try makeWindow(.stacked(home))
        expectRejected(window, .noContainer(from: 2)) { () throws(NavigationError) in
            try window.execute(.selectChild(container: nil, child: .index(0)))
        }
    }

    @Test func aFailedBatchUndoesTheSelection() throws {
        let window = try Self.segments()
        expectRejected(window, .batchCommandFailed(index: 1, .unknownChild(container: 1, child: "index 9", count: 3))) {
            () throws(NavigationError) in
            try window.apply([
                BatchCommand(.selectChild(container: 1, child: .index(0))),
                BatchCommand(.selectChild(container: 1, child: .index(9))),
            ])
        }
        #expect(window.activeModelID == 7)
    }

    @Test func theReportSelectsTheChildTheUserPicked() throws {
        let window = try Self.segments()
        let event = try window.report(.selectedChild(container: 1, child: 4))
        #expect(window.activeModelID == 5)
        #expect(event.steps == [.selectChild(container: 1, child: 4, previous: 6)])
    }

    @Test func aReportOfAModelThatIsNotAChildIsRefused() throws {
        let window = try Self.segments()
        expectRejected(window, .unknownChild(container: 1, child: "model #5", count: 3)) { () throws(NavigationError) in
            try window.report(.selectedChild(container: 1, child: 5))
        }
    }

    @Test func theSelectionSurvivesASnapshotRoundTrip() throws {
        let window = try Self.segments()
        try window.execute(.selectChild(container: 1, child: .index(1)))
        let snapshot = try roundTrip(window.snapshot())
        let restored = try NavigationWindow(snapshot: snapshot)
        #expect(restored.activeModelID == 5)
        #expect(restored.model(1)?.content == .custom(kind: "segments", children: [2, 4, 6], selected: 1))
    }

    @Test func aSnapshotSelectingAMissingChildIsInvalid() throws {
        let window = try Self.segments()
        let snapshot = window.snapshot()
        var models = snapshot.models
        let index = try #require(models.firstIndex { $0.id == 1 })
        models[index].content = .custom(kind: "segments", children: [2, 4, 6], selected: 5)
        #expect(throws: NavigationError.self) {
            try WindowSnapshot(version: snapshot.version, nextModelID: snapshot.nextModelID, root: snapshot.root, models: models)
        }
    }

    @Test func theStepIsWrittenAsJSON() {
        #expect(
            NavigationStep.selectChild(container: 1, child: 4, previous: 6).json
                == #"{"kind":"selectChild","container":1,"child":4,"previous":6}"#)
    }

    @Test func theChildIsAnIndexATagReferenceOrAModelObject() throws {
        let decode = { (text: String) throws -> NavigationCommand in
            try JSONDecoder().decode(NavigationCommand.self, from: Data(text.utf8))
        }
        #expect(try decode(#"{"command":"selectChild","container":12,"child":1}"#) == .selectChild(container: 12, child: .index(1)))
        #expect(try decode(#"{"command":"selectChild","child":"tag:b"}"#) == .selectChild(container: nil, child: .model(.tag("b"))))
        #expect(
            try decode(#"{"command":"selectChild","container":"tag:s","child":{"model":17}}"#)
                == .selectChild(container: .tag("s"), child: .model(17)))
        #expect(throws: DecodingError.self) { try decode(#"{"command":"selectChild","child":"b"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"command":"selectChild","child":{"model":17,"x":1}}"#) }
        for command: NavigationCommand in [
            .selectChild(container: 12, child: .index(1)), .selectChild(container: nil, child: .model(.tag("b"))),
            .selectChild(container: .tag("s"), child: .model(17)),
        ] {
            #expect(try roundTrip(command) == command)
        }
    }

    @Test func aSpecsSelectedKeyRoundTrips() throws {
        let spec = ModelSpec.custom("segments", children: [home, detail], selected: 0)
        #expect(try roundTrip(spec) == spec)
        #expect(try jsonText(spec).contains(#""selected":0"#))
    }
}
